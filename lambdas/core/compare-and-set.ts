import { ConditionFailedError } from './ports/index.js';
import { type Backoff, type RetryPolicy, retry } from './retry.js';

/** Pauses between rounds: none (the next read follows at once), or a schedule with its timer. */
type Pause =
  | { backoff?: undefined; sleep?: undefined; random?: undefined }
  | {
      backoff: Backoff;
      /** Waits `ms` (a timer in the runtimes; core reads no clock). */
      sleep: (ms: number) => Promise<void>;
      /** A number in [0, 1) for the jitter. @default Math.random */
      random?: () => number;
    };

export type CompareAndSetOptions = Pause & {
  /** Rounds in all, the first included. Every lost round means another writer won. */
  maxAttempts: number;
  /**
   * Whether an error means "another writer changed it first, read again". Anything else ends the
   * loop at once.
   *
   * @default the document store's ConditionFailedError
   */
  isLostRace?: (error: unknown) => boolean;
  /**
   * The error to throw when every round lost, given the last lost race.
   *
   * @default the last lost race, as it is
   */
  exhausted?: (lastLostRace: unknown) => Error;
};

/**
 * Runs a read → decide → conditional-write round until its write wins: the one shape every
 * optimistic update in core/ takes (versioned records, counters, lock items, idempotency claims,
 * create-only heads, generation switches). A round reads afresh each time and signals a lost race
 * by throwing (the conditional write's ConditionFailedError, or what `isLostRace` accepts); a
 * refusal it decides on (a DomainError) is never retried.
 *
 * Its callers: versioned records (core/rules/versioned-update.ts, 20 rounds), slot locks
 * (core/booking/slot-locks.ts, 25 rounds with linear full jitter so the losers spread out),
 * idempotency claims (3), manage_attendees' etag write (2), cloud sync's daily quota (5) and
 * create-only head (5 with force), a restore's switch over its backup (3), a new branch's id (5),
 * the file blob store's link racing a folder delete (3), and a rate limit's exact spend (core/limits/request-limiter.ts, 8).
 *
 * Built on {@link retry}, which is hand-written for the reason given there: core/ must not read
 * the clock or start timers, so the pause and the randomness come in as arguments, which the
 * retry libraries (p-retry, async-retry) do not take.
 *
 * @example
 * await compareAndSet(async () => {
 *   const current = await store.get(key, { consistent: true });
 *   const count = Number(current?.count ?? 0);
 *   await store.put({ ...key, count: count + 1 }, {
 *     condition: current ? { op: 'eq', attribute: 'count', value: count } : { op: 'not_exists' },
 *   });
 * }, { maxAttempts: 5, exhausted: () => new DomainError('CONFLICT', 'Too busy; retry.') });
 */
export async function compareAndSet<T>(
  round: (attempt: number) => Promise<T>,
  options: CompareAndSetOptions,
): Promise<T> {
  const isLostRace = options.isLostRace ?? ((error: unknown) => error instanceof ConditionFailedError);
  const limits = { maxAttempts: options.maxAttempts, isRetryable: isLostRace };
  const policy: RetryPolicy =
    options.backoff === undefined
      ? limits
      : { ...limits, backoff: options.backoff, sleep: options.sleep, random: options.random ?? Math.random };
  try {
    return await retry(round, policy);
  } catch (error) {
    // retry() lets a retryable error out only once the rounds ran out.
    if (options.exhausted !== undefined && isLostRace(error)) throw options.exhausted(error);
    throw error;
  }
}
