import type { DocumentStore } from '../../lambdas/core/ports/index.js';

/**
 * `store` with some of its calls replaced: what a test wraps around a real store to count calls
 * or to run a racing writer at the right moment. Every call not in `overrides` goes to `store`.
 *
 * @example
 * const racing = passThroughStore(store, { put: async (item, options) => { await race(); return store.put(item, options); } });
 */
export function passThroughStore(store: DocumentStore, overrides: Partial<DocumentStore>): DocumentStore {
  return {
    get: (key, options) => store.get(key, options),
    put: (item, options) => store.put(item, options),
    delete: (key, options) => store.delete(key, options),
    query: (options) => store.query(options),
    batchGet: (keys) => store.batchGet(keys),
    batchPut: (items) => store.batchPut(items),
    batchDelete: (keys) => store.batchDelete(keys),
    ...overrides,
  };
}
