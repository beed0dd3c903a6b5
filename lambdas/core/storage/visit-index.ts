import type { DocumentStore, StoredItem } from '../ports/index.js';

/** Below every ISO 8601 instant, the sort keys of the index partitions visited here. */
const OLDEST = '0';

export interface IndexVisitBounds {
  /** Items read at once. */
  pageSize: number;
  /** Items visited in this run at most; the rest wait for the next one. */
  max: number;
  /** Where an earlier run stopped. @default - the oldest item */
  cursor?: string | undefined;
  /** Asked before each page: true stops the run there (a Lambda near its timeout). */
  shouldStop?: (() => boolean) | undefined;
}

/**
 * Visits, oldest first, the items of one `gsi1` partition sorted by an ISO instant, up to
 * `upTo`: a page at a time, at most `max` of them, stopping when `shouldStop` says so. What the
 * scheduled memory sweep walks (idle projects, generations to drop). `visit` handles its own
 * failures. Answers how many it visited and, when it stopped before the end, where to carry on.
 *
 * @example
 * const { cursor } = await visitIndexUpTo(store, { partition: GSI1PK.idleMemory, upTo: cutoff }, { pageSize: 25, max: 500 }, visit);
 */
export async function visitIndexUpTo(
  store: DocumentStore,
  range: { partition: string; upTo: string },
  bounds: IndexVisitBounds,
  visit: (item: StoredItem) => Promise<void>,
): Promise<{ visited: number; cursor?: string }> {
  let visited = 0;
  let cursor = bounds.cursor;
  do {
    if (bounds.shouldStop?.() || visited >= bounds.max) break;
    const page = await store.query({
      index: 'gsi1',
      partition: range.partition,
      between: { from: OLDEST, to: range.upTo },
      limit: Math.min(bounds.pageSize, bounds.max - visited),
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const item of page.items) {
      visited += 1;
      await visit(item);
    }
    cursor = page.cursor;
  } while (cursor !== undefined);
  return cursor === undefined ? { visited } : { visited, cursor };
}
