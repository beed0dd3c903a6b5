import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../core/errors.js';
import { MAX_ARGUMENT_STRING_LENGTH } from '../core/input-limits.js';
import { domainErrorResult } from './tool-result.js';

/**
 * The path of the first string longer than the limit in `value`; undefined if none. A loop, not
 * recursion: arguments nested thousands deep must not overflow the stack.
 */
function oversizedStringPath(value: unknown): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string' && item.length > MAX_ARGUMENT_STRING_LENGTH) return path || '(arguments)';
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Object.entries(item)) pending.push([child, path ? `${path}.${key}` : key]);
  }
  return undefined;
}

/**
 * A backstop under every tool's own field limits: INVALID_INPUT when any string in the
 * arguments is longer than MAX_ARGUMENT_STRING_LENGTH, before the schema or the tool does any
 * work on it (a field whose schema forgot a limit still cannot carry megabytes).
 *
 * @example
 * oversizedArgumentResult({ timezone: 'x'.repeat(20_000) }); // an isError result naming "timezone"
 */
export function oversizedArgumentResult(args: unknown): CallToolResult | undefined {
  const field = oversizedStringPath(args);
  if (field === undefined) return undefined;
  return domainErrorResult(
    new DomainError(
      'INVALID_INPUT',
      `"${field}" is too long: no argument may exceed ${MAX_ARGUMENT_STRING_LENGTH} characters. See the tool's inputSchema in tools/list for each field's limit.`,
      { field },
    ),
  );
}
