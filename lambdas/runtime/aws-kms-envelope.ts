import type { EnvelopeEncryption } from '../core/ports/index.js';
import { lazyEnvelope } from './lazy-envelope.js';

/**
 * Envelope encryption under the deployment's KMS key (MERIDIAN_DATA_KEY_ARN). The Encryption SDK
 * (and its KMS client) loads on the first secret read, not at cold start.
 *
 * @example
 * const encryption = kmsEnvelope(requiredEnv(env, DATA_KEY_ARN_ENV));
 */
export function kmsEnvelope(dataKeyArn: string): EnvelopeEncryption {
  return lazyEnvelope(async () => {
    const { EncryptionSdkEnvelope, kmsKeyring } = await import(
      '../adapters/encryption/encryption-sdk-envelope.js'
    );
    return new EncryptionSdkEnvelope(kmsKeyring(dataKeyArn));
  });
}
