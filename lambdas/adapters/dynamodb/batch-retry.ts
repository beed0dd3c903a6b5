import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryOptions {
  /** Requests sent in all, the first one included, before giving up. */
  maxAttempts: number;
  /** Upper bound of the first retry's delay; it doubles with every further retry. */
  baseDelayMs: number;
  /** Cap on any one delay. */
  maxDelayMs: number;
}

/**
 * Sends `pending` and then whatever the store reports as unprocessed (BatchWriteItem's
 * `UnprocessedItems`, BatchGetItem's `UnprocessedKeys`) until nothing is left, sleeping with
 * exponential backoff and full jitter between attempts, as AWS recommends for batch operations.
 * The SDK's own retry strategy does not cover this case: an answer with unprocessed items is a
 * success to it. Throws once `maxAttempts` requests left something unprocessed.
 *
 * @example
 * await retryUntilDone(requests, (batch) => sendAndReturnUnprocessed(batch),
 *   { operation: 'batchPut', maxAttempts: 8, baseDelayMs: 50, maxDelayMs: 2000 });
 */
export async function retryUntilDone<T>(
  pending: T[],
  send: (batch: T[]) => Promise<T[]>,
  options: RetryOptions & { operation: string },
): Promise<void> {
  let left = pending;
  for (let attempt = 1; left.length > 0; attempt++) {
    if (attempt > 1) await sleep(backoffDelayMs(attempt - 1, options));
    left = await send(left);
    if (left.length > 0 && attempt >= options.maxAttempts) {
      throw new Error(
        `${options.operation}: ${left.length} item(s) still unprocessed after ${attempt} attempts; the table is throttling, try again later.`,
      );
    }
  }
}

/** Full jitter: a uniform delay in [0, min(cap, base · 2^(retry − 1))]. */
export function backoffDelayMs(retry: number, options: RetryOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.random() * ceiling;
}
