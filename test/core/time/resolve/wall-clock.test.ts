import { DateTime, IANAZone, Settings } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { formatInstant } from '../../../../lambdas/core/time/instants.js';
import { wallClock, wallClockInZone, wallClockOf } from '../../../../lambdas/core/time/resolve/wall-clock.js';

function at(zone: string, year: number, month: number, day: number, hour: number, minute = 0): string {
  return formatInstant(
    wallClockInZone(wallClock({ year, month, day, hour, minute })!, IANAZone.create(zone)),
  );
}

// Expected values from Python's zoneinfo with fold=0, which uses the same two rules.
describe('wall-clock', () => {
  describe('wallClockInZone', () => {
    it('reads an ordinary wall time with the offset in force', () => {
      expect(at('America/New_York', 2026, 2, 20, 10, 30)).toBe('2026-02-20T10:30:00-05:00');
      expect(at('Asia/Kathmandu', 2026, 2, 20, 10, 30)).toBe('2026-02-20T10:30:00+05:45');
    });

    it('moves a wall time inside a spring-forward gap forward by the gap', () => {
      expect(at('America/New_York', 2026, 3, 8, 2, 30)).toBe('2026-03-08T03:30:00-04:00');
      expect(at('Australia/Lord_Howe', 2026, 10, 4, 2, 15)).toBe('2026-10-04T02:45:00+11:00');
      expect(at('Pacific/Chatham', 2026, 9, 27, 3, 0)).toBe('2026-09-27T04:00:00+13:45');
    });

    it('moves a day that was skipped entirely (Apia, 2011-12-30) to the day after', () => {
      expect(at('Pacific/Apia', 2011, 12, 30, 9, 0)).toBe('2011-12-31T09:00:00+14:00');
    });

    it('picks the first of two occurrences after a fall-back', () => {
      expect(at('America/New_York', 2026, 11, 1, 1, 30)).toBe('2026-11-01T01:30:00-04:00');
      expect(at('Europe/London', 2026, 10, 25, 1, 30)).toBe('2026-10-25T01:30:00+01:00');
      expect(at('Australia/Lord_Howe', 2026, 4, 5, 1, 45)).toBe('2026-04-05T01:45:00+11:00');
    });

    describe('unlike luxon alone', () => {
      const realNow = Settings.now;
      afterEach(() => {
        Settings.now = realNow;
      });

      it('does not let the current date decide which occurrence an ambiguous time is', () => {
        const answers = ['2026-07-01T00:00:00Z', '2026-01-01T00:00:00Z'].map((now) => {
          Settings.now = () => Date.parse(now);
          return at('America/New_York', 2026, 11, 1, 1, 30);
        });
        expect(answers).toEqual(['2026-11-01T01:30:00-04:00', '2026-11-01T01:30:00-04:00']);
      });
    });
  });

  describe('wallClockOf', () => {
    it('carries the local fields of an instant in a UTC DateTime', () => {
      const instant = DateTime.fromISO('2026-11-01T06:30:00Z').setZone('America/New_York') as DateTime<true>;
      expect(wallClockOf(instant).toISO()).toBe('2026-11-01T01:30:00.000Z');
    });
  });
});
