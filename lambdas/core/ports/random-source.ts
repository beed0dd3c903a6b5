/** Randomness, injected so ids and secrets are reproducible in tests and never come from Math.random. */
export interface RandomSource {
  /** Cryptographically strong random bytes. */
  bytes(length: number): Uint8Array;
  /** A random UUID (v4). */
  uuid(): string;
}
