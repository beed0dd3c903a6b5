import type { BlobStore } from '../core/ports/index.js';
import { MEMORY_BUCKET_NAME_ENV } from './environment-names.js';
import { lazyBlobStore } from './lazy-blob-store.js';

/**
 * The memory bucket's blob store (MERIDIAN_MEMORY_BUCKET_NAME, set on the MCP function by the
 * stack), or undefined where the variable is unset (the sync and booking-step functions, the
 * admin CLI). The S3 client loads on the first memory call that needs a blob.
 */
export function awsMemoryBlobs(env: NodeJS.ProcessEnv): BlobStore | undefined {
  const bucket = env[MEMORY_BUCKET_NAME_ENV]?.trim();
  if (!bucket) return undefined;
  return lazyBlobStore(async () => {
    const [{ S3Client }, { S3BlobStore }] = await Promise.all([
      import('@aws-sdk/client-s3'),
      import('../adapters/s3/s3-blob-store.js'),
    ]);
    return new S3BlobStore({ client: new S3Client({}), bucket });
  });
}
