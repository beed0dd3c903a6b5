import { DEFAULT_SYNC_QUOTAS, type SyncQuotas } from '../core/memory/snapshots/sync-quota.js';
import type { CloudTarget } from '../core/ports/index.js';
import {
  MEMORY_SYNC_BUCKET_ENV,
  MEMORY_SYNC_DOWNLOADS_PER_DAY_ENV,
  MEMORY_SYNC_ENDPOINT_ENV,
  MEMORY_SYNC_KEY_FILE_ENV,
  MEMORY_SYNC_KMS_KEY_ARN_ENV,
  MEMORY_SYNC_UPLOADS_PER_DAY_ENV,
} from './environment-names.js';
import { lazyBlobStore } from './lazy-blob-store.js';
import { lazyEnvelope } from './lazy-envelope.js';

/**
 * The cloud sync target from the environment, or undefined when no bucket is set (sync tools
 * then say it is not configured). A bucket without a key is refused at start: nothing may be
 * uploaded that only SSE protects. S3 and the Encryption SDK load on the first sync.
 *
 * @example
 * memorySyncFrom({ MERIDIAN_MEMORY_SYNC_BUCKET: 'acme-memory', MERIDIAN_MEMORY_SYNC_KEY_FILE: '/etc/meridian/sync.key' });
 */
export function memorySyncFrom(
  env: NodeJS.ProcessEnv,
): { cloud: CloudTarget; quotas: SyncQuotas } | undefined {
  const bucket = env[MEMORY_SYNC_BUCKET_ENV]?.trim();
  if (!bucket) return undefined;
  const kmsKeyArn = env[MEMORY_SYNC_KMS_KEY_ARN_ENV]?.trim();
  const keyFile = env[MEMORY_SYNC_KEY_FILE_ENV]?.trim();
  if (!kmsKeyArn === !keyFile) {
    throw new Error(
      `${MEMORY_SYNC_BUCKET_ENV} is set: set exactly one of ${MEMORY_SYNC_KMS_KEY_ARN_ENV} (a KMS key ARN) or ` +
        `${MEMORY_SYNC_KEY_FILE_ENV} (a key file path) to encrypt what is uploaded.`,
    );
  }
  const endpoint = env[MEMORY_SYNC_ENDPOINT_ENV]?.trim();
  return {
    cloud: {
      location: `s3://${bucket}`,
      blobs: lazyBlobStore(async () => {
        const { createBlobS3Client, S3BlobStore } = await import('../adapters/s3/s3-blob-store.js');
        const client = createBlobS3Client(endpoint ? { endpoint, forcePathStyle: true } : {});
        return new S3BlobStore({ client, bucket });
      }),
      encryption: lazyEnvelope(async () => {
        const sdk = await import('../adapters/encryption/encryption-sdk-envelope.js');
        if (kmsKeyArn) return new sdk.EncryptionSdkEnvelope(sdk.kmsKeyring(kmsKeyArn));
        const { loadOrCreateKeyFile } = await import('../adapters/encryption/local-key-file.js');
        return new sdk.EncryptionSdkEnvelope(sdk.rawAesKeyring(await loadOrCreateKeyFile(keyFile!)));
      }),
    },
    quotas: {
      uploadsPerDay: perDay(env, MEMORY_SYNC_UPLOADS_PER_DAY_ENV, DEFAULT_SYNC_QUOTAS.uploadsPerDay),
      downloadsPerDay: perDay(env, MEMORY_SYNC_DOWNLOADS_PER_DAY_ENV, DEFAULT_SYNC_QUOTAS.downloadsPerDay),
    },
  };
}

function perDay(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number of syncs per day, 0 or more (got "${raw}").`);
  }
  return value;
}
