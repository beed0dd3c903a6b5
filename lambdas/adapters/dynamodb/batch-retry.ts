import { setTimeout as sleep } from 'node:timers/promises';
import { exponentialJitter, retry } from '../../core/retry.js';

export interface RetryOptions {
  /** Requests sent in all, the first one included, before giving up. */
  maxAttempts: number;
  /** Upper bound of the first retry's delay; it doubles with every further retry. */
  baseDelayMs: number;
  /** Cap on any one delay. */
  maxDelayMs: number;
}

/** What is left after a request that the store only partly processed: worth sending again. */
class Unprocessed<T> extends Error {
  constructor(readonly left: T[]) {
    super('unprocessed items');
    this.name = 'Unprocessed';
  }
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
  try {
    await retry(
      async () => {
        left = await send(left);
        if (left.length > 0) throw new Unprocessed(left);
      },
      {
        maxAttempts: options.maxAttempts,
        isRetryable: (error) => error instanceof Unprocessed,
        backoff: exponentialJitter(options),
        sleep: (ms) => sleep(ms),
      },
    );
  } catch (error) {
    if (!(error instanceof Unprocessed)) throw error;
    throw new Error(
      `${options.operation}: ${left.length} item(s) still unprocessed after ${Math.max(1, options.maxAttempts)} attempts; the table is throttling, try again later.`,
    );
  }
}
