import { describe, expect, it } from 'vitest';
import { backoffDelay, retryWithBackoff } from '../../../lambdas/adapters/google/google-retry.js';

describe('google-retry', () => {
  describe('backoffDelay', () => {
    it('draws from [0, base · 2^retry) (full jitter)', () => {
      const top = (retry: number) => backoffDelay(retry, { baseDelayMs: 100, random: () => 0.999_999 });

      expect([0, 1, 2, 3].map(top)).toEqual([99, 199, 399, 799]);
      expect(backoffDelay(3, { baseDelayMs: 100, random: () => 0 })).toBe(0);
    });

    it('never exceeds the cap', () => {
      expect(backoffDelay(20, { baseDelayMs: 500, maxDelayMs: 32_000, random: () => 0.5 })).toBe(16_000);
    });
  });

  describe('retryWithBackoff', () => {
    it('retries while the error is retryable and returns the first success', async () => {
      let calls = 0;

      const result = await retryWithBackoff(
        async () => {
          calls += 1;
          if (calls < 3) throw new Error('transient');
          return 'ok';
        },
        () => true,
        { baseDelayMs: 1 },
      );

      expect([result, calls]).toEqual(['ok', 3]);
    });

    it('stops after maxAttempts and rethrows the last error', async () => {
      let calls = 0;

      const run = retryWithBackoff(
        async () => {
          calls += 1;
          throw new Error(`failure ${calls}`);
        },
        () => true,
        { baseDelayMs: 1, maxAttempts: 4 },
      );

      await expect(run).rejects.toThrow('failure 4');
      expect(calls).toBe(4);
    });

    it('does not retry an error the predicate rejects', async () => {
      let calls = 0;

      const run = retryWithBackoff(
        async () => {
          calls += 1;
          throw new Error('permanent');
        },
        () => false,
        { baseDelayMs: 1 },
      );

      await expect(run).rejects.toThrow('permanent');
      expect(calls).toBe(1);
    });
  });
});
