import { DomainError } from '../errors.js';

/**
 * A syntax error at a position, with the query and a caret under the spot, so an agent (and a
 * person reading its transcript) sees where to fix it.
 *
 * @example
 * invalidQuery('title:a OR', 10, 'Expected a condition after OR.');
 * // message: 'Expected a condition after OR. At position 10:\n  title:a OR\n            ^'
 */
export function invalidQuery(query: string, position: number, problem: string): DomainError {
  const { line, column } = windowAround(query, position);
  const caret = `${' '.repeat(column)}^`;
  return new DomainError('INVALID_QUERY', `${problem} At position ${position}:\n  ${line}\n  ${caret}`, {
    position,
    caret: `${line}\n${caret}`,
  });
}

/** Characters of the query shown on each side of the error: a long query never comes back whole. */
const CARET_CONTEXT = 60;

/** The part of `query` around `position`, marked with … where cut, and the position's column in it. */
function windowAround(query: string, position: number): { line: string; column: number } {
  const from = Math.max(0, position - CARET_CONTEXT);
  const to = Math.min(query.length, position + CARET_CONTEXT);
  const before = from > 0 ? '…' : '';
  const after = to < query.length ? '…' : '';
  return { line: `${before}${query.slice(from, to)}${after}`, column: before.length + position - from };
}
