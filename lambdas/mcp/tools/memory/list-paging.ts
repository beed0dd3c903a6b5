import * as z from 'zod';
import { DomainError } from '../../../core/errors.js';
import { echo } from '../../../core/input-limits.js';
import { withHintExample } from '../../field-hints.js';
import { boundedString } from '../../schemas.js';

/**
 * Paging of the memory lists an agent reads whole (branches, snapshots): every item is read from
 * the table (they are small rows), and the answer carries one page, the total and a cursor, so a
 * project with hundreds of them does not cost an agent thousands of tokens per call.
 */

const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

export const pageLimitField = z
  .number()
  .int()
  .min(1)
  .max(MAX_PAGE)
  .optional()
  .describe(`Per page; default ${DEFAULT_PAGE}.`);

/** `example`: an id of the kind the list pages by, for INVALID_INPUT. */
export const pageCursorField = (example: string) =>
  withHintExample(boundedString(200), example).optional().describe('next_cursor of the previous page.');

/**
 * The page of `all` after the item whose id is `cursor` (from the start without one), and the
 * cursor of the next page when more follow.
 *
 * @throws DomainError INVALID_INPUT when no item has the id `cursor`
 */
export function pageAfter<T>(
  all: readonly T[],
  idOf: (item: T) => string,
  options: { cursor?: string | undefined; limit?: number | undefined; list: string },
): { page: T[]; next_cursor?: string } {
  const from = options.cursor === undefined ? 0 : all.findIndex((item) => idOf(item) === options.cursor) + 1;
  if (from === 0 && options.cursor !== undefined) {
    throw new DomainError(
      'INVALID_INPUT',
      `cursor ${echo(options.cursor)} is not in ${options.list}: pass the next_cursor the previous page answered, or none for the first page.`,
      { field: 'cursor' },
    );
  }
  const page = all.slice(from, from + (options.limit ?? DEFAULT_PAGE));
  const last = page.at(-1);
  return last !== undefined && from + page.length < all.length ? { page, next_cursor: idOf(last) } : { page };
}
