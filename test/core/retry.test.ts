import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exponentialJitter, fixedDelay, linearJitter, retry } from '../../lambdas/core/retry.js';

/** A sleep that records the pauses it was asked for and returns at once. */
function recordingSleep() {
  const pauses: number[] = [];
  return { pauses, sleep: async (ms: number) => void pauses.push(ms) };
}

/** An operation that fails with `transient` `failures` times, then returns 'ok'. */
function failingTimes(failures: number) {
  const calls: number[] = [];
  const operation = async (attempt: number) => {
    calls.push(attempt);
    if (calls.length <= failures) throw new Error(`transient ${calls.length}`);
    return 'ok';
  };
  return { calls, operation };
}

describe('retry', () => {
  describe('exponentialJitter', () => {
    it('draws from [0, base · 2^retry) (full jitter)', () => {
      const backoff = exponentialJitter({ baseDelayMs: 100, maxDelayMs: 32_000 });

      expect([0, 1, 2, 3].map((retryNumber) => backoff(retryNumber, () => 0.999_999))).toEqual([
        99, 199, 399, 799,
      ]);
      expect(backoff(3, () => 0)).toBe(0);
    });

    it('never exceeds the cap', () => {
      const backoff = exponentialJitter({ baseDelayMs: 500, maxDelayMs: 32_000 });

      fc.assert(
        fc.property(fc.nat(60), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
          const delay = backoff(n, () => r);
          return delay >= 0 && delay < 32_000 && Number.isInteger(delay);
        }),
      );
    });
  });

  describe('linearJitter', () => {
    it('grows the window by one step per retry up to maxSteps', () => {
      const backoff = linearJitter({ stepMs: 8, maxSteps: 8 });

      expect([0, 1, 2, 7, 8, 20].map((n) => backoff(n, () => 1))).toEqual([8, 16, 24, 64, 64, 64]);
      expect(backoff(5, () => 0)).toBe(0);
    });
  });

  describe('fixedDelay', () => {
    it('waits the same time plus a jitter below jitterMs', () => {
      expect([0, 1, 5].map((n) => fixedDelay(250)(n, () => 0.9))).toEqual([250, 250, 250]);
      expect(fixedDelay(20, 80)(0, () => 0.5)).toBe(60);
    });
  });

  describe('retry', () => {
    it('retries while the error is retryable and returns the first success, pausing by the schedule', async () => {
      const { calls, operation } = failingTimes(2);
      const { pauses, sleep } = recordingSleep();

      const result = await retry(operation, {
        maxAttempts: 5,
        isRetryable: () => true,
        backoff: exponentialJitter({ baseDelayMs: 100, maxDelayMs: 1000 }),
        random: () => 0.5,
        sleep,
      });

      expect(result).toBe('ok');
      expect(calls).toEqual([1, 2, 3]);
      expect(pauses).toEqual([50, 100]);
    });

    it('stops after maxAttempts and rethrows the last error as it is', async () => {
      const { calls, operation } = failingTimes(10);
      const { pauses, sleep } = recordingSleep();

      const run = retry(operation, { maxAttempts: 4, isRetryable: () => true, sleep });

      await expect(run).rejects.toThrow('transient 4');
      expect(calls).toHaveLength(4);
      expect(pauses).toEqual([0, 0, 0]);
    });

    it('does not retry an error the predicate rejects', async () => {
      const { calls, operation } = failingTimes(10);
      const { pauses, sleep } = recordingSleep();

      const run = retry(operation, { maxAttempts: 5, isRetryable: () => false, sleep });

      await expect(run).rejects.toThrow('transient 1');
      expect([calls.length, pauses.length]).toEqual([1, 0]);
    });

    it('tries at least once whatever maxAttempts says', async () => {
      const { calls, operation } = failingTimes(0);

      await expect(
        retry(operation, { maxAttempts: 0, isRetryable: () => true, sleep: async () => {} }),
      ).resolves.toBe('ok');
      expect(calls).toEqual([1]);
    });

    it('retries at once when the policy has no schedule and no sleep', async () => {
      const { calls, operation } = failingTimes(2);

      await expect(retry(operation, { maxAttempts: 3, isRetryable: () => true })).resolves.toBe('ok');
      expect(calls).toEqual([1, 2, 3]);
    });

    it('starts no retry once the deadline has passed, by the injected clock', async () => {
      let now = 1_000;
      const { calls, operation } = failingTimes(100);
      const sleep = async (ms: number) => {
        now += ms;
      };

      const run = retry(operation, {
        isRetryable: () => true,
        backoff: fixedDelay(30),
        sleep,
        deadline: { atMs: 1_100, now: () => now },
      });

      // Tries at 1000, 1030, 1060, 1090 and 1120; after the fifth the deadline has passed.
      await expect(run).rejects.toThrow('transient 5');
      expect(calls).toHaveLength(5);
    });
  });
});
