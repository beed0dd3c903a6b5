import type { BlobStore } from '../core/ports/index.js';
import { lazyBlobStore } from './lazy-blob-store.js';

/**
 * The memory bucket's blob store (MERIDIAN_MEMORY_BUCKET_NAME, set on the MCP and memory
 * compression functions by the stack), or undefined where it is unset (the sync and booking-step
 * functions, the admin CLI). The S3 client loads on the first memory call that needs a blob.
 */
export function awsMemoryBlobs(bucket: string | undefined): BlobStore | undefined {
  if (!bucket) return undefined;
  return lazyBlobStore(async () => {
    const [{ S3Client }, { S3BlobStore }] = await Promise.all([
      import('@aws-sdk/client-s3'),
      import('../adapters/s3/s3-blob-store.js'),
    ]);
    return new S3BlobStore({ client: new S3Client({}), bucket });
  });
}
