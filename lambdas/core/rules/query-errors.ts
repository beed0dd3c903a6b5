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
  const caret = `${' '.repeat(position)}^`;
  return new DomainError('INVALID_QUERY', `${problem} At position ${position}:\n  ${query}\n  ${caret}`, {
    position,
    caret: `${query}\n${caret}`,
  });
}
