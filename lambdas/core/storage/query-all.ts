import type { DocumentStore, QueryOptions, StoredItem } from '../ports/index.js';

/** Reads every page of a query. For partitions known to be small (grants of a key, calendars). */
export async function queryAll<T extends StoredItem = StoredItem>(
  store: DocumentStore,
  options: Omit<QueryOptions, 'cursor'>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.query<T>({ ...options, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return items;
}
