import type { DocumentStore } from '../../lambdas/core/ports/index.js';

/** Fails every write after the first `budget` ones, as a crash half-way through a change would. */
export function crashingStore(store: DocumentStore, budget: number): DocumentStore {
  let left = budget;
  const spend = () => {
    if (left-- <= 0) throw new Error('crash');
  };
  return {
    get: (key, options) => store.get(key, options),
    query: (options) => store.query(options),
    batchGet: (keys) => store.batchGet(keys),
    put: async (item, options) => {
      spend();
      return store.put(item, options);
    },
    delete: async (key, options) => {
      spend();
      return store.delete(key, options);
    },
    batchPut: async (items) => {
      spend();
      return store.batchPut(items);
    },
    batchDelete: async (keys) => {
      spend();
      return store.batchDelete(keys);
    },
  };
}
