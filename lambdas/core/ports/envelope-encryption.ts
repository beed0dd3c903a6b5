/**
 * Envelope encryption for secrets at rest (provider refresh tokens, CalDAV passwords). The
 * `context` is authenticated data: decrypting with a different context must fail.
 */
export interface EnvelopeEncryption {
  encrypt(plaintext: Uint8Array, context: Record<string, string>): Promise<Uint8Array>;
  decrypt(ciphertext: Uint8Array, context: Record<string, string>): Promise<Uint8Array>;
}
