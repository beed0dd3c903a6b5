/**
 * The interfaces core/ needs from the outside world. Adapters implement them; composition roots
 * (lambdas/runtime) wire them. core/ never reads the system clock or touches I/O directly.
 */

/** The current instant. Injected so tests can freeze time. */
export interface Clock {
  now(): Date;
}

/** A clock that reads the system time; the only place core-facing code may call `Date.now()`. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock frozen at one instant, for tests and for `reference_time`. */
export function fixedClock(instant: Date | string): Clock {
  const frozen = new Date(instant);
  return { now: () => new Date(frozen.getTime()) };
}

/** What the time tools need: a clock and the deployment's default zone, if one is configured. */
export interface TimeDeps {
  clock: Clock;
  /** IANA zone from configuration (`MERIDIAN_TIMEZONE`); undefined when none was set. */
  defaultTimezone: string | undefined;
}

/** Randomness, injected so ids and secrets are reproducible in tests and never come from Math.random. */
export interface RandomSource {
  /** Cryptographically strong random bytes. */
  bytes(length: number): Uint8Array;
  /** A random UUID (v4). */
  uuid(): string;
}

/**
 * Envelope encryption for secrets at rest (provider refresh tokens, CalDAV passwords). The
 * `context` is authenticated data: decrypting with a different context must fail.
 */
export interface EnvelopeEncryption {
  encrypt(plaintext: Uint8Array, context: Record<string, string>): Promise<Uint8Array>;
  decrypt(ciphertext: Uint8Array, context: Record<string, string>): Promise<Uint8Array>;
}
