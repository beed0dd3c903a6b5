import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Exponential backoff with full jitter, the scheme Google recommends for its APIs. Written here
 * rather than left to gaxios' built-in retry so that which failures are retried, how often and how
 * they surface is decided (and tested) in one place; the client library's retry is turned off.
 */

export interface RetryOptions {
  /** Total tries, the first included. @default 5 */
  maxAttempts?: number;
  /** Delay ceiling before the first retry; doubles with each retry. @default 500 */
  baseDelayMs?: number;
  /** Cap on any single delay. @default 32_000 */
  maxDelayMs?: number;
  /** A number in [0, 1); injected so tests can pin the jitter. @default Math.random */
  random?: () => number;
}

const DEFAULTS = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 32_000 } as const;

/**
 * The delay before retry number `retry` (0 for the first retry): uniform in
 * [0, min(maxDelayMs, baseDelayMs · 2^retry)).
 *
 * @example
 * backoffDelay(2, { baseDelayMs: 100, random: () => 0.5 }); // 200
 */
export function backoffDelay(retry: number, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const cap = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const random = options.random ?? Math.random;
  return Math.floor(random() * Math.min(cap, base * 2 ** retry));
}

/**
 * Runs `operation`, retrying while `shouldRetry(error)` holds and attempts remain; the last error
 * is rethrown as is.
 *
 * @example
 * const data = await retryWithBackoff(() => fetchPage(), (e) => isTransient(e), { baseDelayMs: 1 });
 */
export async function retryWithBackoff<T>(
  operation: () => Promise<T>,
  shouldRetry: (error: unknown) => boolean,
  options: RetryOptions = {},
): Promise<T> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULTS.maxAttempts);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= maxAttempts || !shouldRetry(error)) throw error;
      await sleep(backoffDelay(attempt - 1, options));
    }
  }
}
