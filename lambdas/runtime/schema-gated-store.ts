import type { DocumentStore, ItemKey, QueryOptions, StoredItem } from '../core/ports/index.js';
import type { SchemaCheck } from '../core/storage/schema-version.js';

/**
 * A document store that lets a function's first requests run alongside the table's schema check
 * (runtime/aws-schema-version.ts) instead of behind it, without ever writing to a table it must
 * refuse or handing code an item of a layout it does not know:
 *
 * - a write waits for the check: a table a newer Meridian wrote refuses it with the check's
 *   UNSUPPORTED_FORMAT, before anything reaches the table;
 * - a read is sent at once and its answer released only with the check's: refused the same way on
 *   a newer table, and sent again when the check had to bring an older table up to date, since the
 *   first answer may predate the upgrade.
 *
 * Once the check has passed every call goes straight to the store. The function's answer is still
 * refused as a whole on a newer table (handlers/middleware/schema-version.ts).
 *
 * @example
 * const store = schemaGatedStore(tableStore, schemaReady);
 * await store.put(item); // rejects with UNSUPPORTED_FORMAT, writing nothing, on a newer table
 */
export function schemaGatedStore(
  store: DocumentStore,
  /** The check's outcome, synchronously once it is known (nothing to wait for, nothing to read again). */
  schemaReady: () => SchemaCheck | Promise<SchemaCheck>,
): DocumentStore {
  let passed = false;
  const read = async <T>(send: () => Promise<T>): Promise<T> => {
    if (passed) return send();
    const ready = schemaReady();
    // Known before this read is sent: any upgrade the check made is already in the table.
    if (!(ready instanceof Promise)) {
      passed = true;
      return send();
    }
    const [answer, schema] = await Promise.all([send(), ready]);
    passed = true;
    return schema.found < schema.version ? send() : answer;
  };
  const write = async <T>(send: () => Promise<T>): Promise<T> => {
    if (!passed) {
      await schemaReady();
      passed = true;
    }
    return send();
  };
  return {
    get: <T extends StoredItem>(key: ItemKey, options?: { consistent?: boolean }) =>
      read(() => store.get<T>(key, options)),
    query: <T extends StoredItem>(options: QueryOptions) => read(() => store.query<T>(options)),
    batchGet: <T extends StoredItem>(keys: readonly ItemKey[]) => read(() => store.batchGet<T>(keys)),
    put: (item, options) => write(() => store.put(item, options)),
    delete: (key, options) => write(() => store.delete(key, options)),
    batchPut: (items) => write(() => store.batchPut(items)),
    batchDelete: (keys) => write(() => store.batchDelete(keys)),
  };
}
