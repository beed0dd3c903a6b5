import { type CallToolResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { IdempotencyRecords } from '../core/booking/idempotency.js';
import { isDomainError } from '../core/errors.js';
import type { Logger } from '../core/ports/index.js';
import { oversizedArgumentResult } from './argument-limits.js';
import type { DepsSlice, McpServerDeps, SliceDeps, ToolContext } from './deps.js';
import { runOnce } from './idempotent-call.js';
import type { ToolDefinition } from './tool-definition.js';
import { domainErrorResult, invalidInputResult, toolResult } from './tool-result.js';
import { unknownFields } from './unknown-fields.js';

/**
 * The last step of a tools/call: validates the arguments against the tool's schema and runs it.
 * Failures the caller can fix are `isError` results; anything else is logged here and answered
 * with -32603 and nothing internal.
 */
export async function callTool(
  tool: ToolDefinition,
  rawArguments: unknown,
  deps: McpServerDeps,
  context: ToolContext,
  logger: Logger,
): Promise<CallToolResult> {
  const oversized = oversizedArgumentResult(rawArguments);
  if (oversized) return oversized;
  const args = rawArguments ?? {};
  const parsed = tool.input.safeParse(args);
  // zod drops fields it does not know; refusing them keeps a typo from reading as accepted.
  const unknown = unknownFields(tool.input, args);
  if (!parsed.success || unknown.length > 0) {
    const issues = parsed.success ? [] : parsed.error.issues;
    return invalidInputResult(tool.name, issues, { schema: tool.input, raw: args, unknown });
  }
  // Only the slice the tool declared is built: input refused above builds none.
  const toolDeps = await loadToolDeps(deps, tool.needs);
  try {
    const output = tool.idempotencyKey
      ? await runOnce(
          await recordsOf(toolDeps)(),
          // The schema above is an object's, so the arguments are one.
          { tool: tool.name, args: args as Record<string, unknown>, context, logger },
          // The key is the pipeline's: a handler never sees it, so no service stores it by mistake.
          async () => (await tool.run(toolDeps, withoutKey(parsed.data), context)) as Record<string, unknown>,
        )
      : ((await tool.run(toolDeps, parsed.data, context)) as Record<string, unknown>);
    const format = (parsed.data as { format?: unknown }).format;
    return await toolResult(output, format, tool.toonView?.(output), tool.renderText?.(output, format));
  } catch (error) {
    if (isDomainError(error)) return domainErrorResult(error);
    // A bug or an outage: log the details here, tell the client nothing internal.
    logger.error('tool failed', { tool: tool.name, error });
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
  }
}

function withoutKey(input: Record<string, unknown>): Record<string, unknown> {
  const { idempotency_key: _key, ...rest } = input;
  return rest;
}

/**
 * The idempotency records of a slice that stores anything (every slice but the time tools'),
 * loaded by the first keyed write: a read tool loads none of their code.
 */
function recordsOf(deps: SliceDeps[DepsSlice]): () => Promise<IdempotencyRecords> {
  if (!('idempotency' in deps)) throw new Error('a keyed tool needs a slice with idempotency records');
  return deps.idempotency;
}

/** A slice of the tools' object graph; a failure to build it is logged and reported without internals. */
export async function loadToolDeps<Slice extends DepsSlice>(
  deps: McpServerDeps,
  slice: Slice,
): Promise<SliceDeps[Slice]> {
  try {
    return await deps.toolDeps(slice);
  } catch (error) {
    deps.logger.error('building the tool dependencies failed', { error });
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
  }
}
