import { describe, expect, it } from 'vitest';
import type { CalendarEvent } from '../../../../lambdas/core/calendar/event.js';
import { expandSeries } from '../../../../lambdas/core/calendar/series.js';
import { isDomainError } from '../../../../lambdas/core/errors.js';
import { expandRrule } from '../../../../lambdas/core/time/recurrence/expand-rrule.js';
import { DEFAULT_WORK_STEPS, WorkBudget } from '../../../../lambdas/core/work-budget.js';

/** The rule from the issue: every second, kept only at 23:59:59 on a Feb 29 that is a Monday. */
const RARE_SECONDLY = 'FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;BYHOUR=23;BYMINUTE=59;BYSECOND=59';

/** Runs `fn`, returning the DomainError code it threw (or 'none') and how long it took. */
function timed(fn: () => unknown): { code: string; ms: number } {
  const started = performance.now();
  let code = 'none';
  try {
    fn();
  } catch (error) {
    if (!isDomainError(error)) throw error;
    code = error.code;
  }
  return { code, ms: performance.now() - started };
}

describe('work budget', () => {
  describe('WorkBudget', () => {
    it('allows exactly its limit, then refuses with the task and the advice', () => {
      const budget = new WorkBudget('Counting sheep', 'Count fewer sheep.', 3);
      budget.spend(3);
      expect(budget.spent).toBe(3);
      let thrown: unknown;
      try {
        budget.spend();
      } catch (error) {
        thrown = error;
      }
      expect(isDomainError(thrown, 'WORK_LIMIT_EXCEEDED')).toBe(true);
      expect((thrown as Error).message).toMatch(
        /^Counting sheep needs more work .*\(3 steps\).*Count fewer sheep\.$/,
      );
    });
  });

  describe('expandRrule', () => {
    it('refuses the rare SECONDLY rule with WORK_LIMIT_EXCEEDED in a fraction of a second (was 12 s)', () => {
      const { code, ms } = timed(() =>
        expandRrule({ rrule: RARE_SECONDLY, dtstart: '2026-03-01T00:00:00', timezone: 'UTC', count: 300 }),
      );
      expect(code).toBe('WORK_LIMIT_EXCEEDED');
      // Generous for a loaded CI machine; unmetered, rrule scans to year 9999 for ~12 s.
      expect(ms).toBeLessThan(1000);
    });

    it('says in the refusal which rule ran out and how to ask for less', () => {
      let message = '';
      try {
        expandRrule({ rrule: RARE_SECONDLY, dtstart: '2026-03-01T00:00:00', timezone: 'UTC', count: 300 });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(`Expanding "${RARE_SECONDLY}"`);
      expect(message).toContain(`(${DEFAULT_WORK_STEPS} steps)`);
      expect(message).toMatch(/narrower window \(after\/before\)/);
    });

    it('refuses a DAILY rule that finds a date once in 28 years, but not the same dates asked YEARLY', () => {
      const daily = timed(() =>
        expandRrule({
          rrule: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO',
          dtstart: '2026-03-01T09:00:00',
          timezone: 'UTC',
          count: 20,
        }),
      );
      expect(daily.code).toBe('WORK_LIMIT_EXCEEDED');
      const yearly = expandRrule({
        rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO',
        dtstart: '2026-03-01T09:00:00',
        timezone: 'UTC',
        count: 3,
      });
      expect(yearly.instances.map((i) => i.start)).toEqual([
        '2044-02-29T09:00:00+00:00',
        '2072-02-29T09:00:00+00:00',
        '2112-02-29T09:00:00+00:00',
      ]);
    });

    it('shares one allowance across the calls given the same budget', () => {
      const budget = new WorkBudget('Two expansions', 'Do one.', 150);
      const weekly = {
        rrule: 'FREQ=WEEKLY',
        dtstart: '2026-01-05T09:00:00',
        timezone: 'UTC',
        count: 100,
        budget,
      };
      expect(expandRrule(weekly).instances).toHaveLength(100);
      expect(timed(() => expandRrule(weekly)).code).toBe('WORK_LIMIT_EXCEEDED');
    });
  });

  describe('expandSeries', () => {
    it('refuses a stored series with the rare rule instead of holding the caller', () => {
      const master: CalendarEvent = {
        id: 'rare',
        calendar_id: 'native/home',
        summary: 'Leap Monday',
        start: { date_time: '2026-03-01T00:00:00+00:00', time_zone: 'UTC' },
        end: { date_time: '2026-03-01T00:00:01+00:00', time_zone: 'UTC' },
        recurrence: [`RRULE:${RARE_SECONDLY}`],
      } as CalendarEvent;
      const { code, ms } = timed(() =>
        expandSeries(
          { master, overrides: [] },
          Date.parse('2026-03-01T00:00:00Z'),
          Date.parse('2300-01-01T00:00:00Z'),
        ),
      );
      expect(code).toBe('WORK_LIMIT_EXCEEDED');
      expect(ms).toBeLessThan(1000);
    });
  });
});
