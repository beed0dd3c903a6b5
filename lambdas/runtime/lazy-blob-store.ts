import { once } from '../core/once.js';
import { type BlobStore, storageFailure } from '../core/ports/index.js';

/**
 * A blob store built on first use: the Lambda's cold start loads no S3 client until a memory
 * tool needs one.
 */
export function lazyBlobStore(load: () => Promise<BlobStore>): BlobStore {
  const store = once(load);
  return {
    put: async (key, bytes) => (await store()).put(key, bytes),
    get: async (key, options) => (await store()).get(key, options),
    head: async (key) => (await store()).head(key),
    delete: async (key) => (await store()).delete(key),
    list: async (options) => (await store()).list(options),
  };
}

/**
 * The blob store of a runtime that has none configured (the AWS admin CLI without the bucket
 * variable): every call is a STORAGE_ERROR that names what is missing.
 */
export function missingBlobStore(what: string): BlobStore {
  return lazyBlobStore(async () => {
    throw storageFailure(`no blob store: ${what}`);
  });
}
