import type * as z from 'zod';
import type { DepsSlice, KeyedWrites, SliceDeps, ToolContext } from './deps.js';

/** The four behaviour hints every Meridian tool declares (MCP tool annotations). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Hints for reads of calendars: read-only, idempotent, open-world (providers are outside). */
export const CALENDAR_READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/** Hints for pure computations: read-only, idempotent, closed-world. */
export const PURE_COMPUTATION: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * One MCP tool: its public contract (name, schemas, annotations, description) and the handler
 * that maps validated input to structured output. Handlers throw `DomainError` for anything the
 * caller can fix; the server turns that into an `isError` result with the code.
 */
export interface ToolDefinition<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
  Needs extends DepsSlice = DepsSlice,
> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  annotations: ToolAnnotations;
  /** The slice of the object graph `run` gets: a runtime builds only that slice for the call. */
  needs: Needs;
  /**
   * The tool takes `idempotency_key` (idempotencyKeyField in its input) and runs once per key:
   * a retry gets the first answer (mcp/idempotent-call.ts). For write tools that are not
   * idempotent by nature; book_slot keys its bookings itself. Only on a slice that carries the
   * records (`KeyedWrites`): a memory read's slice has none, so that it loads none of their code.
   */
  idempotencyKey?: SliceDeps[Needs] extends KeyedWrites ? true : never;
  run(
    deps: SliceDeps[Needs],
    input: z.output<Input>,
    context: ToolContext,
  ): Promise<z.input<Output>> | z.input<Output>;
  /**
   * What the TOON text shows, when it should differ from structuredContent: TOON saves tokens on
   * uniform rows of scalars, so nested records (events) are flattened into such rows.
   */
  toonView?(output: z.input<Output>): Record<string, unknown>;
  /**
   * The text content for a format the tool renders itself (get_timesheet's `csv`, for spreadsheets);
   * undefined: the usual JSON or TOON text. Only a "json" answer carries structuredContent.
   */
  renderText?(output: z.input<Output>, format: unknown): string | undefined;
}

/**
 * Declares a tool with full type inference between its schemas and its handler.
 *
 * @example
 * export const pingTool = defineTool({ name: 'ping', title: 'Ping', description: '…',
 *   input: z.object({}), output: z.object({ ok: z.boolean() }), annotations: PURE_COMPUTATION,
 *   needs: 'time', run: () => ({ ok: true }) });
 */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject, Needs extends DepsSlice>(
  definition: ToolDefinition<Input, Output, Needs>,
): ToolDefinition<Input, Output, Needs> {
  return definition;
}
