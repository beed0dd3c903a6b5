import { describe, expect, it } from 'vitest';
import { isDomainError } from '../../../../lambdas/core/errors.js';
import { expandRrule } from '../../../../lambdas/core/time/recurrence/expand-rrule.js';
import { assertDaysCanOccur } from '../../../../lambdas/core/time/recurrence/floating-walk.js';
import { parseRule } from '../../../../lambdas/core/time/recurrence/parse-rule.js';
import { assertTimesReachable } from '../../../../lambdas/core/time/recurrence/reachable-times.js';
import { WorkBudget } from '../../../../lambdas/core/work-budget.js';

function reachable(rrule: string, dtstart: number): boolean {
  try {
    assertTimesReachable(parseRule(rrule), dtstart);
    return true;
  } catch (error) {
    if (isDomainError(error, 'INVALID_RRULE')) return false;
    throw error;
  }
}

describe('reachable-times', () => {
  describe('assertTimesReachable', () => {
    it('refuses every-2-hours from 08:00 limited to 09:00, and accepts it limited to 10:00', () => {
      expect(reachable('FREQ=HOURLY;INTERVAL=2;BYHOUR=9', Date.UTC(2026, 0, 1, 8))).toBe(false);
      expect(reachable('FREQ=HOURLY;INTERVAL=2;BYHOUR=9,10', Date.UTC(2026, 0, 1, 8))).toBe(true);
    });

    it('works on minutes and seconds of the day for MINUTELY and SECONDLY', () => {
      expect(reachable('FREQ=MINUTELY;INTERVAL=15;BYMINUTE=10', Date.UTC(2026, 0, 1, 8, 0))).toBe(false);
      expect(reachable('FREQ=MINUTELY;INTERVAL=15;BYMINUTE=10', Date.UTC(2026, 0, 1, 8, 25))).toBe(true);
      expect(reachable('FREQ=MINUTELY;INTERVAL=7;BYMINUTE=3', Date.UTC(2026, 0, 1, 8, 0))).toBe(true); // 7 and 1440 are coprime
      expect(reachable('FREQ=SECONDLY;INTERVAL=12;BYSECOND=0', Date.UTC(2026, 0, 1, 8, 0, 1))).toBe(false);
      expect(reachable('FREQ=SECONDLY;INTERVAL=12;BYSECOND=13', Date.UTC(2026, 0, 1, 8, 0, 1))).toBe(true);
    });

    it('refuses a MINUTELY step longer than an hour that skips every BYHOUR hour', () => {
      // Every 90 minutes from 01:15 reaches 01:15, 02:45, 04:15, … 23:45, then 01:15 again: never
      // 00:xx or 18:xx. rule-arbitrary once generated this (fast-forward property, random seed)
      // and walking it ran towards year 9999.
      expect(reachable('FREQ=MINUTELY;INTERVAL=90;BYHOUR=0,18', Date.UTC(2025, 8, 28, 1, 15))).toBe(false);
      expect(reachable('FREQ=MINUTELY;INTERVAL=90;BYHOUR=0,18', Date.UTC(2025, 8, 28, 0, 45))).toBe(true);
    });

    it('knows that a step of whole weeks keeps the weekday of DTSTART', () => {
      const monday = Date.UTC(2026, 0, 5, 8);
      expect(reachable('FREQ=DAILY;INTERVAL=7;BYDAY=TU', monday)).toBe(false);
      expect(reachable('FREQ=DAILY;INTERVAL=14;BYDAY=MO', monday)).toBe(true);
      expect(reachable('FREQ=DAILY;INTERVAL=3;BYDAY=TU', monday)).toBe(true); // 3 and 7 are coprime
      expect(reachable('FREQ=HOURLY;INTERVAL=168;BYDAY=TU', monday)).toBe(false);
      expect(reachable('FREQ=MINUTELY;INTERVAL=10080;BYDAY=MO', monday)).toBe(true);
    });

    it('ignores parts that expand rather than limit (BYMINUTE for HOURLY) and coarser frequencies', () => {
      expect(reachable('FREQ=HOURLY;INTERVAL=2;BYMINUTE=7', Date.UTC(2026, 0, 1, 8))).toBe(true);
      expect(reachable('FREQ=DAILY;INTERVAL=2;BYHOUR=9', Date.UTC(2026, 0, 1, 8))).toBe(true);
      expect(reachable('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', Date.UTC(2026, 0, 5, 8))).toBe(true);
    });
  });

  describe('assertDaysCanOccur', () => {
    function daysOccur(rrule: string): boolean {
      try {
        assertDaysCanOccur(parseRule(rrule), Date.UTC(2026, 0, 5, 8), new WorkBudget('test', ''));
        return true;
      } catch (error) {
        if (isDomainError(error, 'INVALID_RRULE')) return false;
        throw error;
      }
    }

    it('refuses day parts that never meet', () => {
      expect(daysOccur('FREQ=DAILY;BYMONTH=1;BYYEARDAY=200')).toBe(false);
      expect(daysOccur('FREQ=YEARLY;BYWEEKNO=20;BYMONTH=12')).toBe(false);
      expect(daysOccur('FREQ=MONTHLY;BYDAY=1FR;BYMONTHDAY=13')).toBe(false);
      expect(daysOccur('FREQ=MONTHLY;BYDAY=6MO')).toBe(false);
    });

    it('accepts day parts that meet, however rarely', () => {
      expect(daysOccur('FREQ=MONTHLY;BYDAY=1FR;BYMONTHDAY=6')).toBe(true);
      expect(daysOccur('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO')).toBe(true); // 2044-02-29
      expect(daysOccur('FREQ=MONTHLY;BYDAY=5MO')).toBe(true);
      expect(daysOccur('FREQ=YEARLY;BYDAY=53MO')).toBe(true);
    });
  });

  describe('expandRrule', () => {
    it('answers a rule that can never occur with INVALID_RRULE instead of searching forever', () => {
      expect(() =>
        expandRrule({
          rrule: 'FREQ=HOURLY;INTERVAL=2;BYHOUR=9',
          dtstart: '2026-01-01T08:00',
          timezone: 'UTC',
        }),
      ).toThrow(/never occurs/);
    });
  });
});
