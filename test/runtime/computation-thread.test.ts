import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../lambdas/core/errors.js';
import {
  type ComputationArgs,
  type ComputationName,
  runComputation,
} from '../../lambdas/mcp/computations.js';
import { type ComputationThread, startComputationThread } from '../../lambdas/runtime/computation-thread.js';

const AT = { now: '2026-02-16T15:30:00.000Z', defaultTimezone: 'America/New_York' };

/** What running `name` here gives: its result, or its error's class, code, message and details. */
function inProcess<N extends ComputationName>(name: N, args: ComputationArgs<N>) {
  try {
    return { result: runComputation(name, args) };
  } catch (error) {
    return { error };
  }
}

async function onThread<N extends ComputationName>(
  thread: ComputationThread,
  name: N,
  args: ComputationArgs<N>,
) {
  try {
    return { result: await thread.run(name, args) };
  } catch (error) {
    return { error };
  }
}

// The real worker thread `meridian serve` runs the time tools' computations on.
describe('startComputationThread', { timeout: 60_000 }, () => {
  let thread: ComputationThread;

  beforeAll(() => {
    thread = startComputationThread();
  });

  afterAll(async () => {
    await thread?.close();
  });

  describe('run', () => {
    it.each([
      [
        'expandRrule',
        {
          rrule: 'FREQ=WEEKLY;BYDAY=MO,FR;COUNT=5',
          dtstart: '2026-03-02T09:00',
          timezone: 'America/New_York',
        },
      ],
      ['resolveDatetime', { at: AT, input: { expression: 'next Tuesday at 2pm' } }],
      [
        'readQuickAdd',
        { at: AT, text: 'Lunch with Alice tomorrow at noon at Cafe Rio', timezone: 'Europe/London' },
      ],
    ] as const)('answers %s exactly as it runs in process', async (name, args) => {
      // Act
      const answered = await onThread(thread, name, args);

      // Assert
      expect(answered.error).toBeUndefined();
      expect(answered).toEqual(inProcess(name, args));
    });

    it.each([
      [
        'expandRrule',
        {
          rrule: 'FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO',
          dtstart: '2026-03-01T00:00',
          timezone: 'UTC',
        },
        'WORK_LIMIT_EXCEEDED',
      ],
      [
        'expandRrule',
        { rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', dtstart: '2026-01-01T00:00', timezone: 'UTC' },
        'INVALID_RRULE',
      ],
      ['resolveDatetime', { at: AT, input: { expression: 'whenever suits' } }, 'UNRECOGNIZED_EXPRESSION'],
    ] as const)('rejects %s with the same DomainError (%s) as in process', async (name, args, code) => {
      // Act
      const { error } = await onThread(thread, name, args);

      // Assert
      const expected = inProcess(name, args).error as DomainError;
      expect(expected.code).toBe(code);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code, message: expected.message, details: expected.details });
    });

    it('runs the next call after one that failed', async () => {
      // Arrange
      await onThread(thread, 'resolveDatetime', { at: AT, input: { expression: 'whenever suits' } });

      // Act
      const { result } = await onThread(thread, 'resolveDatetime', { at: AT, input: { expression: 'now' } });

      // Assert
      expect(result?.resolved_utc).toBe('2026-02-16T15:30:00+00:00');
    });
  });

  describe('close', () => {
    it('fails a call still running when the thread stops, instead of leaving it pending', async () => {
      // Arrange: a call that spends its whole work budget.
      const own = startComputationThread();
      const running = own.run('expandRrule', {
        rrule: 'FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO',
        dtstart: '2026-03-01T00:00',
        timezone: 'UTC',
      });

      // Act
      await own.close();

      // Assert
      await expect(running).rejects.toThrow(/computation thread stopped/);
    });
  });
});
