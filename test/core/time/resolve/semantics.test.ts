import { describe, expect, it } from 'vitest';
import { resolveDatetime } from '../../../../lambdas/core/time/resolve/resolve-datetime.js';
import { frozenAt } from './helpers.js';

const NY = 'America/New_York';
// Noon EST on each day of the week Monday 2026-02-16 … Sunday 2026-02-22.
const WEEK = {
  Monday: '2026-02-16T17:00:00Z',
  Tuesday: '2026-02-17T17:00:00Z',
  Wednesday: '2026-02-18T17:00:00Z',
  Thursday: '2026-02-19T17:00:00Z',
  Friday: '2026-02-20T17:00:00Z',
  Saturday: '2026-02-21T17:00:00Z',
  Sunday: '2026-02-22T17:00:00Z',
} as const;

type Day = keyof typeof WEEK;

function dateOf(expression: string, reference: string): string {
  return resolveDatetime(frozenAt(reference), { expression, timezone: NY }).resolved_local.slice(0, 10);
}

// The expected dates, worked out by hand from a calendar: the current week is Feb 16–22, the
// next one Feb 23–Mar 1, the previous one Feb 9–15.
const WEEKDAY_TABLE: Array<[Day, string, string]> = [
  // "next X" is X of the following Monday–Sunday week, whatever today is.
  ...(Object.keys(WEEK) as Day[]).map((day): [Day, string, string] => [day, 'next Tuesday', '2026-02-24']),
  // "this X" is X of the current week, even when that is in the past.
  ...(Object.keys(WEEK) as Day[]).map((day): [Day, string, string] => [day, 'this Friday', '2026-02-20']),
  // "last X" is the most recent X strictly before today (issue 7: it was X of the previous week).
  ['Monday', 'last Wednesday', '2026-02-11'],
  ['Tuesday', 'last Wednesday', '2026-02-11'],
  ['Wednesday', 'last Wednesday', '2026-02-11'],
  ['Thursday', 'last Wednesday', '2026-02-18'],
  ['Friday', 'last Wednesday', '2026-02-18'],
  ['Saturday', 'last Wednesday', '2026-02-18'],
  ['Sunday', 'last Wednesday', '2026-02-18'],
  // A bare weekday is the first one strictly after today.
  ['Monday', 'Tuesday', '2026-02-17'],
  ['Tuesday', 'Tuesday', '2026-02-24'],
  ['Wednesday', 'Tuesday', '2026-02-24'],
  ['Thursday', 'Tuesday', '2026-02-24'],
  ['Friday', 'Tuesday', '2026-02-24'],
  ['Saturday', 'Tuesday', '2026-02-24'],
  ['Sunday', 'Tuesday', '2026-02-24'],
  ['Monday', 'Sunday', '2026-02-22'],
  ['Saturday', 'Sunday', '2026-02-22'],
  ['Sunday', 'Sunday', '2026-03-01'],
  ['Sunday', 'next Monday', '2026-02-23'],
  ['Monday', 'this Monday', '2026-02-16'],
  ['Sunday', 'this Monday', '2026-02-16'],
];

describe('resolveDatetime semantics', () => {
  describe('weekdays (weeks run Monday to Sunday)', () => {
    it.each(WEEKDAY_TABLE)('on a %s, "%s" is %s', (day, expression, expected) => {
      expect(dateOf(expression, WEEK[day])).toBe(expected);
    });

    it('reads "next Tuesday" on a Tuesday as 7 days later and on a Monday as 8 days later', () => {
      expect(dateOf('next Tuesday', WEEK.Tuesday)).toBe('2026-02-24');
      expect(dateOf('next Tuesday', WEEK.Monday)).toBe('2026-02-24');
    });

    it('reads "this Friday" on a Saturday as yesterday', () => {
      expect(dateOf('this Friday', WEEK.Saturday)).toBe('2026-02-20');
    });
  });

  describe('output', () => {
    it('matches the reference example field for field', () => {
      const result = resolveDatetime(frozenAt('2026-02-20T15:30:00Z', NY), {
        expression: 'next Tuesday at 2pm',
      });
      expect(result).toEqual({
        resolved_utc: '2026-02-24T19:00:00+00:00',
        resolved_local: '2026-02-24T14:00:00-05:00',
        timezone: NY,
        interpretation: 'Tuesday, February 24, 2026 at 2:00 PM',
        reference_time: '2026-02-20T10:30:00-05:00',
        matched_category: 'combined',
      });
    });

    it('shows seconds in the interpretation only when they are not zero', () => {
      const result = resolveDatetime(frozenAt(), { expression: 'end of month', timezone: NY });
      expect(result.interpretation).toBe('Saturday, February 28, 2026 at 11:59:59 PM');
    });

    it('uses reference_time instead of the clock when given', () => {
      const result = resolveDatetime(frozenAt('2030-01-01T00:00:00Z'), {
        expression: 'tomorrow at noon',
        timezone: 'Europe/London',
        reference_time: '2026-06-10T23:30:00-04:00',
      });
      // 23:30 EDT on June 10 is already June 11 in London, so "tomorrow" is June 12.
      expect(result.resolved_local).toBe('2026-06-12T12:00:00+01:00');
      expect(result.reference_time).toBe('2026-06-11T04:30:00+01:00');
    });

    it('reads in the configured zone when no timezone is given, else in UTC', () => {
      expect(resolveDatetime(frozenAt(undefined, 'Asia/Tokyo'), { expression: 'today' }).resolved_local).toBe(
        '2026-02-21T00:00:00+09:00',
      );
      const utc = resolveDatetime(frozenAt(), { expression: 'today' });
      expect(utc.resolved_local).toBe('2026-02-20T00:00:00+00:00');
      expect(utc.timezone).toBe('UTC');
    });

    it('returns an RFC 3339 instant with an offset unchanged, whatever the zone', () => {
      const result = resolveDatetime(frozenAt(), {
        expression: '2026-03-15T10:00:00-07:00',
        timezone: 'Asia/Kathmandu',
      });
      expect(result.resolved_utc).toBe('2026-03-15T17:00:00+00:00');
      expect(result.resolved_local).toBe('2026-03-15T22:45:00+05:45');
    });

    it('ignores case and extra spaces', () => {
      const result = resolveDatetime(frozenAt(), { expression: '  NEXT   tuesday  AT 2PM ', timezone: NY });
      expect(result.resolved_local).toBe('2026-02-24T14:00:00-05:00');
    });
  });

  describe('midnight', () => {
    it('is the midnight that ends the named day, while 12am starts it', () => {
      expect(
        resolveDatetime(frozenAt(), { expression: 'today at midnight', timezone: NY }).resolved_local,
      ).toBe('2026-02-21T00:00:00-05:00');
      expect(resolveDatetime(frozenAt(), { expression: 'today at 12am', timezone: NY }).resolved_local).toBe(
        '2026-02-20T00:00:00-05:00',
      );
    });
  });

  describe('offsets', () => {
    it('keeps the day of the month clamped when adding months (Jan 31 + 1 month = Feb 28)', () => {
      const result = resolveDatetime(frozenAt('2026-01-31T15:00:00Z'), {
        expression: 'in 1 month',
        timezone: NY,
      });
      expect(result.resolved_local).toBe('2026-02-28T10:00:00-05:00');
    });

    it('counts hours as elapsed time and days as calendar days across spring forward', () => {
      const deps = frozenAt('2026-03-07T15:30:00Z');
      const hours = resolveDatetime(deps, { expression: '+48h', timezone: NY });
      const days = resolveDatetime(deps, { expression: '+2d', timezone: NY });
      expect(Date.parse(hours.resolved_utc) - Date.parse('2026-03-07T15:30:00Z')).toBe(48 * 3_600_000);
      expect(Date.parse(days.resolved_utc) - Date.parse('2026-03-07T15:30:00Z')).toBe(47 * 3_600_000);
    });

    // Chatham's 02:45 happened twice on 2019-04-07; the reference is the second one (+12:45).
    // Found by the "in N hours" property with N = 0: a zero offset used to go through the wall
    // clock and come back as the first 02:45, an hour early.
    it.each(['in 0 hours', '+0m', '0 minutes ago'])(
      'leaves a reference inside a fall-back overlap where it is: %s',
      (expression) => {
        const result = resolveDatetime(frozenAt('2019-04-06T14:00:00Z'), {
          expression,
          timezone: 'Pacific/Chatham',
        });

        expect(result.resolved_utc).toBe('2019-04-06T14:00:00+00:00');
        expect(result.resolved_local).toBe('2019-04-07T02:45:00+12:45');
      },
    );
  });
});
