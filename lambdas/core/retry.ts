/**
 * The one retry loop and the backoff schedules its callers choose from. Pure: the pause and the
 * randomness are injected, so a test runs every schedule without waiting and with pinned jitter.
 *
 * Callers and their policies (each keeps the counts and delays it had before this module):
 * - Google API calls (adapters/google/google-retry.ts): 5 attempts, exponential full jitter from
 *   500 ms capped at 32 s, on rate limits and 5xx — Google's recommended scheme.
 * - DynamoDB batch leftovers (adapters/dynamodb/batch-retry.ts): 8 attempts, exponential full
 *   jitter from 50 ms capped at 2 s — AWS's recommendation for unprocessed batch items.
 * - CalDAV requests (adapters/caldav/caldav-http.ts): an idempotent request twice, 250 ms apart.
 * - Every compare-and-set loop, through core/compare-and-set.ts (which names its callers).
 * - DynamoDB requests (adapters/dynamodb/dynamodb-http-client.ts): 3 attempts, exponential full
 *   jitter from 50 ms capped at 2 s, on throttling, 5xx and dropped connections (the SDK's
 *   standard mode); inside each, the embedded store's reconnect: 5 tries, the pause being "wait
 *   until a process serves the store" instead of a timer.
 * - The embedded store's takeover poll (runtime/store-takeover.ts): until a deadline, 20–100 ms.
 * - A local table's creation (adapters/dynamodb/local-dynamodb.ts): until it is ACTIVE, 30 s at
 *   most, 50 ms doubling to 1 s.
 */

/** The pause before retry number `retry` (0 for the first retry), given a number in [0, 1). */
export type Backoff = (retry: number, random: () => number) => number;

/**
 * Full jitter over an exponentially growing window: uniform in [0, min(maxDelayMs, baseDelayMs ·
 * 2^retry)), whole milliseconds. Spreads the retries of many clients that failed together.
 *
 * @example
 * exponentialJitter({ baseDelayMs: 100, maxDelayMs: 1000 })(2, () => 0.5); // 200
 */
export function exponentialJitter(options: { baseDelayMs: number; maxDelayMs: number }): Backoff {
  return (retry, random) =>
    Math.floor(random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry));
}

/**
 * Full jitter over a window that grows linearly, `stepMs` per retry up to `maxSteps` steps:
 * uniform in [0, stepMs · min(retry + 1, maxSteps)], rounded. For contention on one item, where
 * the next round is likely to succeed and an exponential wait would only add latency.
 *
 * @example
 * linearJitter({ stepMs: 8, maxSteps: 8 })(0, () => 0.5); // 4
 */
export function linearJitter(options: { stepMs: number; maxSteps: number }): Backoff {
  return (retry, random) => Math.round(random() * options.stepMs * Math.min(retry + 1, options.maxSteps));
}

/**
 * The same pause before every retry, plus a uniform jitter in [0, jitterMs).
 *
 * @example
 * fixedDelay(250)(3, Math.random); // 250
 */
export function fixedDelay(delayMs: number, jitterMs = 0): Backoff {
  return (_retry, random) => delayMs + random() * jitterMs;
}

interface RetryLimits {
  /** Tries in all, the first included; at least 1. @default unbounded (a `deadline` must stop it) */
  maxAttempts?: number;
  /** Whether a failure is worth another try. Anything else is rethrown at once. */
  isRetryable: (error: unknown) => boolean;
  /** A number in [0, 1) for the jitter. @default Math.random */
  random?: () => number;
  /** No retry starts once `now()` (epoch ms, injected: core reads no clock) is past `atMs`. */
  deadline?: { atMs: number; now: () => number };
}

/**
 * How often and after what pause to try again. A schedule needs a `sleep` to wait it out (a timer
 * in the adapters, the runtime's pause in core); without one, a retry follows at once, or after
 * whatever `sleep` waits for (e.g. a reconnect).
 */
export type RetryPolicy = RetryLimits &
  (
    | { backoff: Backoff; sleep: (ms: number) => Promise<void> }
    | { backoff?: undefined; sleep?: (ms: number) => Promise<void> }
  );

/**
 * Runs `operation` (given the attempt number, from 1) until it succeeds, fails with an error that
 * is not retryable, runs out of attempts or passes the deadline; then the last error is rethrown
 * as it is, so the caller decides how a final failure surfaces.
 *
 * @example
 * const page = await retry(() => fetchPage(), {
 *   maxAttempts: 5, isRetryable: isTransient, backoff: exponentialJitter({ baseDelayMs: 500, maxDelayMs: 32_000 }), sleep,
 * });
 */
export async function retry<T>(operation: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const maxAttempts = Math.max(1, policy.maxAttempts ?? Number.POSITIVE_INFINITY);
  const random = policy.random ?? Math.random;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation(attempt);
    } catch (error) {
      const outOfTime = policy.deadline !== undefined && policy.deadline.now() > policy.deadline.atMs;
      if (attempt >= maxAttempts || outOfTime || !policy.isRetryable(error)) throw error;
      await policy.sleep?.(policy.backoff?.(attempt - 1, random) ?? 0);
    }
  }
}
