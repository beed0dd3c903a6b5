import { setTimeout as sleep } from 'node:timers/promises';
import { exponentialJitter, retry } from '../../core/retry.js';

/**
 * Google's failure policy on top of the one retry loop (core/retry.ts): exponential backoff with
 * full jitter, the scheme Google recommends for its APIs. Decided here rather than left to
 * gaxios' built-in retry so that which failures are retried, how often and how they surface is
 * decided (and tested) in one place; the client library's retry is turned off.
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
export function backoffDelay(retryNumber: number, options: RetryOptions = {}): number {
  return googleBackoff(options)(retryNumber, options.random ?? Math.random);
}

function googleBackoff(options: RetryOptions) {
  return exponentialJitter({
    baseDelayMs: options.baseDelayMs ?? DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULTS.maxDelayMs,
  });
}

/**
 * Runs `operation`, retrying while `shouldRetry(error)` holds and attempts remain; the last error
 * is rethrown as is.
 *
 * @example
 * const data = await retryWithBackoff(() => fetchPage(), (e) => isTransient(e), { baseDelayMs: 1 });
 */
export function retryWithBackoff<T>(
  operation: () => Promise<T>,
  shouldRetry: (error: unknown) => boolean,
  options: RetryOptions = {},
): Promise<T> {
  return retry(() => operation(), {
    maxAttempts: options.maxAttempts ?? DEFAULTS.maxAttempts,
    isRetryable: shouldRetry,
    backoff: googleBackoff(options),
    random: options.random,
    sleep: (ms) => sleep(ms),
  });
}
