import type { BlobStore } from './blob-store.js';
import type { EnvelopeEncryption } from './envelope-encryption.js';

/**
 * The organisation's bucket that machines share a project's memory through, and the key that
 * encrypts what goes there (a KMS key both the deployment and laptops may use, or a shared local
 * key file). Objects are encrypted before upload, so the bucket never holds plaintext. How sync
 * lays out keys in it is core/memory/snapshots/cloud-target.ts's business.
 */
export interface CloudTarget {
  blobs: BlobStore;
  encryption: EnvelopeEncryption;
  /** Where it is, for messages: `s3://bucket`. */
  location: string;
}
