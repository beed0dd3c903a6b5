import type { SyncQuotas } from '../core/memory/snapshots/sync-quota.js';
import type { CloudTarget } from '../core/ports/index.js';
import type { MemorySyncSettings } from './environment.js';
import { lazyBlobStore } from './lazy-blob-store.js';
import { lazyEnvelope } from './lazy-envelope.js';

/**
 * The cloud sync target of the parsed settings (environment.ts refuses a bucket without exactly
 * one key), or undefined when no bucket is set (sync tools then say it is not configured). S3
 * and the Encryption SDK load on the first sync.
 *
 * @example
 * memorySyncFrom(parseEnvironment({ MERIDIAN_MEMORY_SYNC_BUCKET: 'acme-memory', MERIDIAN_MEMORY_SYNC_KEY_FILE: '/etc/meridian/sync.key' }).memorySync);
 */
export function memorySyncFrom(
  settings: MemorySyncSettings | undefined,
): { cloud: CloudTarget; quotas: SyncQuotas } | undefined {
  if (!settings) return undefined;
  const { bucket, endpoint, key } = settings;
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
        if ('kmsKeyArn' in key) return new sdk.EncryptionSdkEnvelope(sdk.kmsKeyring(key.kmsKeyArn));
        const { loadOrCreateKeyFile } = await import('../adapters/encryption/local-key-file.js');
        return new sdk.EncryptionSdkEnvelope(sdk.rawAesKeyring(await loadOrCreateKeyFile(key.keyFile)));
      }),
    },
    quotas: settings.quotas,
  };
}
