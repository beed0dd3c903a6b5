import type { CallToolResult } from '@modelcontextprotocol/server';
import { encode } from '@toon-format/toon';
import type { z } from 'zod';
import type { DomainError } from '../core/errors.js';
import { excerpt } from '../core/input-limits.js';
import { inputProblems, type ToolInput } from './input-problems.js';
import { wellFormed } from './well-formed.js';

/**
 * A successful result: `structuredContent` for programs, text for models. Tools whose input has
 * `format: "toon"` get TOON text (fewer tokens for lists); a tool that renders a format itself
 * passes `rendered` (CSV); everything else gets JSON text. Lone surrogates (in text stored before
 * the sanitiser) become U+FFFD in every form, so no stored text can make an answer fail.
 */
export function successResult(
  structured: Record<string, unknown>,
  format: unknown,
  toonView: Record<string, unknown> = structured,
  rendered?: string,
): CallToolResult {
  const safe = wellFormed(structured);
  const text =
    rendered === undefined
      ? format === 'toon'
        ? encode(toonView === structured ? safe : wellFormed(toonView))
        : JSON.stringify(safe)
      : wellFormed(rendered);
  return { content: [{ type: 'text', text }], structuredContent: safe };
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
