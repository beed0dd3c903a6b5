import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { DomainError, ERROR_CODES } from '../core/errors.js';

/** The text of every `isError` result a tool answers (tool-result.ts writes it). */
const RefusalBody = z.object({
  error: z.looseObject({ code: z.enum(ERROR_CODES), message: z.string() }),
});

/**
 * The DomainError an `isError` tool result stands for, read back from the text
 * `domainErrorResult` / `invalidInputResult` wrote: for in-process callers of the pipeline (the
 * CLI) that want the refusal as the error it was. Undefined for a success, and for an error text
 * that is not one of ours.
 *
 * @example
 * const refusal = refusalOf(await runToolCall(deps, context, 'list_rules', {}));
 * if (refusal) throw refusal;
 */
export function refusalOf(result: CallToolResult): DomainError | undefined {
  if (!result.isError) return undefined;
  const [first] = result.content;
  if (first?.type !== 'text') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(first.text);
  } catch {
    return undefined;
  }
  const parsed = RefusalBody.safeParse(json);
  if (!parsed.success) return undefined;
  const { code, message, ...details } = parsed.data.error;
  return new DomainError(code, message, details);
}
