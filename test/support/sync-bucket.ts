import { randomBytes } from 'node:crypto';
import {
  EncryptionSdkEnvelope,
  rawAesKeyring,
} from '../../lambdas/adapters/encryption/encryption-sdk-envelope.js';
import { S3BlobStore } from '../../lambdas/adapters/s3/s3-blob-store.js';
import type { CloudTarget } from '../../lambdas/core/ports/index.js';
import { s3rverClient, startS3rver } from './s3rver.js';

/**
 * An organisation's sync bucket for cloud-sync tests: a real S3 wire server (s3rver) with one
 * bucket, reached through the S3 blob store, and a fresh raw AES sync key.
 */
export async function startSyncBucket(bucket = 'org-memory-sync'): Promise<{
  cloud: CloudTarget;
  endpoint: string;
  close(): Promise<void>;
}> {
  const s3 = await startS3rver([bucket]);
  const client = s3rverClient(s3.endpoint);
  return {
    cloud: {
      blobs: new S3BlobStore({ client, bucket }),
      encryption: new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32)))),
      location: `s3://${bucket}`,
    },
    endpoint: s3.endpoint,
    close: async () => {
      client.destroy();
      await s3.close();
    },
  };
}
