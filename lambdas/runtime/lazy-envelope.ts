import type { EnvelopeEncryption } from '../core/ports/index.js';

/**
 * Defers building an envelope-encryption client until the first secret is read or written: the
 * AWS Encryption SDK (and its KMS client) is large, and most requests never touch a secret.
 */
export function lazyEnvelope(load: () => Promise<EnvelopeEncryption>): EnvelopeEncryption {
  let loading: Promise<EnvelopeEncryption> | undefined;
  const client = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    encrypt: async (plaintext, context) => (await client()).encrypt(plaintext, context),
    decrypt: async (ciphertext, context) => (await client()).decrypt(ciphertext, context),
  };
}
