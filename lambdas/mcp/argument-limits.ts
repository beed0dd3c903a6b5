import type { CallToolResult } from '@modelcontextprotocol/server';
import { DomainError } from '../core/errors.js';
import { MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_STRING_LENGTH } from '../core/input-limits.js';
import { domainErrorResult } from './tool-result.js';

/** The first limit the arguments break: where, and which. */
type ArgumentProblem = { kind: 'too-long'; path: string } | { kind: 'too-deep'; field: string };

/**
 * The first string longer than the limit or value nested deeper than the limit in `value`;
 * undefined if none. A loop, not recursion: arguments nested thousands deep must not overflow the
 * stack here, and nothing after this (the schema, the unknown-field walk) sees them.
 */
function argumentProblem(value: unknown): ArgumentProblem | undefined {
  const pending: [item: unknown, path: string, depth: number][] = [[value, '', 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, path, depth] = next;
    if (typeof item === 'string' && item.length > MAX_ARGUMENT_STRING_LENGTH)
      return { kind: 'too-long', path: path || '(arguments)' };
    if (typeof item !== 'object' || item === null) continue;
    // The arguments object is depth 0: a field's own array or object is level 1.
    if (depth > MAX_ARGUMENT_DEPTH) return { kind: 'too-deep', field: path.split('.')[0] || '(arguments)' };
    for (const [key, child] of Object.entries(item))
      pending.push([child, path ? `${path}.${key}` : key, depth + 1]);
  }
  return undefined;
}

/**
 * A backstop under every tool's own field limits: INVALID_INPUT when any string in the
 * arguments is longer than MAX_ARGUMENT_STRING_LENGTH, or arrays and objects nest deeper than
 * MAX_ARGUMENT_DEPTH, before the schema or the tool does any work on them (a field whose schema
 * forgot a limit still cannot carry megabytes, and no field can overflow the stack).
 *
 * @example
 * oversizedArgumentResult({ timezone: 'x'.repeat(20_000) }); // an isError result naming "timezone"
 * oversizedArgumentResult({ format: [[[[…]]]] }); // an isError result naming "format" and max_depth
 */
export function oversizedArgumentResult(args: unknown): CallToolResult | undefined {
  const problem = argumentProblem(args);
  if (problem === undefined) return undefined;
  if (problem.kind === 'too-deep') {
    return domainErrorResult(
      new DomainError(
        'INVALID_INPUT',
        `"${problem.field}" is nested too deeply: arrays and objects in a tool's arguments nest at most ${MAX_ARGUMENT_DEPTH} levels. See the tool's inputSchema in tools/list for the field's shape.`,
        { field: problem.field, max_depth: MAX_ARGUMENT_DEPTH },
      ),
    );
  }
  return domainErrorResult(
    new DomainError(
      'INVALID_INPUT',
      `"${problem.path}" is too long: no argument may exceed ${MAX_ARGUMENT_STRING_LENGTH} characters. See the tool's inputSchema in tools/list for each field's limit.`,
      { field: problem.path },
    ),
  );
}
