import { randomBytes } from 'node:crypto';
import { buildClient, CommitmentPolicy } from '@aws-crypto/client-node';
import { describe, expect, it } from 'vitest';
import {
  EncryptionSdkEnvelope,
  rawAesKeyring,
} from '../../../lambdas/adapters/encryption/encryption-sdk-envelope.js';

const sdk = buildClient(CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT);
const CONTEXT = { project_id: 'prj_1', snapshot_id: 'snap_1' };

describe('EncryptionSdkEnvelope (real Encryption SDK, raw AES keyring)', () => {
  const keyring = rawAesKeyring(new Uint8Array(randomBytes(32)));
  const envelope = new EncryptionSdkEnvelope(keyring);
  const plaintext = new Uint8Array(randomBytes(300_000));

  it('round-trips a message of several frames and writes 64 KiB frames, not the SDK default 4 KiB', async () => {
    const ciphertext = await envelope.encrypt(plaintext, CONTEXT);
    expect(Buffer.from(await envelope.decrypt(ciphertext, CONTEXT)).equals(plaintext)).toBe(true);
    const { messageHeader } = await sdk.decrypt(keyring, ciphertext);
    expect(messageHeader.frameLength).toBe(64 * 1024);
  });

  it('still decrypts a message written with the SDK default 4 KiB frames (what older Meridians stored)', async () => {
    const { result } = await sdk.encrypt(keyring, plaintext, { encryptionContext: CONTEXT });
    expect((await sdk.decrypt(keyring, result)).messageHeader.frameLength).toBe(4096);
    expect(Buffer.from(await envelope.decrypt(result, CONTEXT)).equals(plaintext)).toBe(true);
  });

  it('refuses a message whose encryption context names another record', async () => {
    const ciphertext = await envelope.encrypt(plaintext, CONTEXT);
    await expect(envelope.decrypt(ciphertext, { ...CONTEXT, snapshot_id: 'snap_2' })).rejects.toThrow(
      /context mismatch on "snapshot_id"/,
    );
  });
});
