import type { CallToolResult } from '@modelcontextprotocol/server';
import { encode } from '@toon-format/toon';
import type * as z from 'zod';
import type { DomainError } from '../core/errors.js';
import { excerpt } from '../core/input-limits.js';
import { inputProblems, type ToolInput } from './input-problems.js';
import { wellFormed } from './well-formed.js';

/**
 * A successful result. `format: "json"`, and tools without a format, answer `structuredContent`
 * for programs and the same JSON as text (the spec's SHOULD, for clients that read only text).
 * A TOON answer (the default of list-shaped tools) and a format the tool renders itself
 * (`rendered`: get_timesheet's CSV) are text only: repeating the data as JSON beside them would
 * cost the tokens TOON saves, and those tools list no outputSchema, so none is owed (ADR 0024).
 * Lone surrogates (in text stored before the sanitiser) become U+FFFD, so no stored text can make
 * an answer fail.
 */
export function successResult(
  structured: Record<string, unknown>,
  format: unknown,
  toonView: Record<string, unknown> = structured,
  rendered?: string,
): CallToolResult {
  if (rendered !== undefined) return textOnly(wellFormed(rendered));
  if (format === 'toon') return textOnly(encode(wellFormed(toonView)));
  const safe = wellFormed(structured);
  return { content: [{ type: 'text', text: JSON.stringify(safe) }], structuredContent: safe };
}

const textOnly = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

/** Rows past which an answer's TOON text is encoded where CPU-bound work runs, not inline. */
const LONG_LISTING_ROWS = 500;

const isLongListing = (view: Record<string, unknown>) =>
  Object.values(view).some((value) => Array.isArray(value) && value.length > LONG_LISTING_ROWS);

/**
 * {@link successResult}, with a long listing's TOON text encoded by `compute` (computation-turns.ts):
 * on `meridian serve` that is the computation thread, so a 2,500-event page does not hold the event
 * loop — and /health — for the 70–300 ms its encoding takes. Loaded on first use, so that a
 * cold start loads no time code.
 */
export async function toolResult(
  structured: Record<string, unknown>,
  format: unknown,
  toonView: Record<string, unknown> = structured,
  rendered?: string,
): Promise<CallToolResult> {
  if (format !== 'toon' || rendered !== undefined || !isLongListing(toonView)) {
    return successResult(structured, format, toonView, rendered);
  }
  const { compute } = await import('./computation-turns.js');
  return textOnly(await compute('encodeToon', wellFormed(toonView)));
}

/**
 * A failure the caller can fix. No `structuredContent`: clients validate it against the
 * tool's outputSchema, which describes success only.
 */
export function domainErrorResult(error: DomainError): CallToolResult {
  // Details often carry the caller's value (calendar_id): never a megabyte of it.
  const details = Object.entries(error.details).map(([key, value]) => [
    key,
    typeof value === 'string' ? excerpt(value) : value,
  ]);
  const body = { error: { code: error.code, message: error.message, ...Object.fromEntries(details) } };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/**
 * Turns zod issues (and fields the tool does not know) into one INVALID_INPUT result. Each problem
 * names the field, says what is wrong, what the field expects and gives an example; with `input`,
 * the expectations come from the tool's own schema.
 */
export function invalidInputResult(
  toolName: string,
  issues: readonly z.core.$ZodIssue[],
  input?: ToolInput,
): CallToolResult {
  const problems = inputProblems(issues, input);
  const summary = problems.map((p) => `"${p.field}": ${p.problem}`).join('; ');
  const body = {
    error: {
      code: 'INVALID_INPUT',
      message: `Invalid arguments for ${toolName}: ${summary}. See the tool's inputSchema in tools/list.`,
      problems,
    },
  };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
