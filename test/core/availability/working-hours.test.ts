import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { firstInstantAt } from '../../../lambdas/core/availability/wall-clock.js';
import { parseWorkingHours, workingWindows } from '../../../lambdas/core/availability/working-hours.js';
import { isDomainError } from '../../../lambdas/core/errors.js';

// Expected instants below were cross-checked with Python's zoneinfo.
const at = (text: string) => Date.parse(text);
const win = (start: string, end: string) => ({ start: at(start), end: at(end) });
const HOUR = 3_600_000;

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('availability', () => {
  describe('parseWorkingHours', () => {
    it('reads "09:00-17:00" with Monday to Friday by default', () => {
      expect(parseWorkingHours('09:00-17:00', 'Europe/London')).toEqual({
        start: '09:00',
        end: '17:00',
        zone: 'Europe/London',
        days: [1, 2, 3, 4, 5],
      });
    });

    it('accepts one-digit hours, an en dash, spaces, 24:00 and given days', () => {
      expect(parseWorkingHours(' 9:30 – 24:00 ', 'UTC', [6, 7])).toEqual({
        start: '09:30',
        end: '24:00',
        zone: 'UTC',
        days: [6, 7],
      });
    });

    it('spells the zone as IANA does', () => {
      expect(parseWorkingHours('09:00-17:00', 'asia/kathmandu').zone).toBe('Asia/Kathmandu');
    });

    it('accepts an overnight shift (end before start)', () => {
      expect(parseWorkingHours('22:00-06:00', 'UTC').end).toBe('06:00');
    });

    it.each([
      ['9-17', /look like/],
      ['09:00-09:00', /same time/],
      ['24:00-06:00', /23:59/],
      ['09:60-17:00', /HH:mm/],
      ['09:00-24:01', /24:00/],
    ])('rejects "%s" with INVALID_INPUT', (text, message) => {
      const error = errorOf(() => parseWorkingHours(text, 'UTC'));

      expect(isDomainError(error, 'INVALID_INPUT')).toBe(true);
      expect((error as Error).message).toMatch(message);
    });

    it('rejects days that are not ISO weekdays, and unknown zones', () => {
      expect(
        isDomainError(
          errorOf(() => parseWorkingHours('09:00-17:00', 'UTC', [0])),
          'INVALID_INPUT',
        ),
      ).toBe(true);
      expect(
        isDomainError(
          errorOf(() => parseWorkingHours('09:00-17:00', 'UTC', [])),
          'INVALID_INPUT',
        ),
      ).toBe(true);
      expect(
        isDomainError(
          errorOf(() => parseWorkingHours('09:00-17:00', 'Mars/Olympus')),
          'INVALID_TIMEZONE',
        ),
      ).toBe(true);
    });
  });

  describe('workingWindows', () => {
    it('moves New York office hours an hour earlier in UTC across the spring-forward weekend', () => {
      const windows = workingWindows(
        { start: '09:00', end: '17:00', zone: 'America/New_York' },
        at('2026-03-06T00:00:00Z'),
        at('2026-03-10T00:00:00Z'),
      );

      expect(windows).toEqual([
        win('2026-03-06T14:00:00Z', '2026-03-06T22:00:00Z'),
        win('2026-03-09T13:00:00Z', '2026-03-09T21:00:00Z'),
      ]);
    });

    it('makes the spring-forward day 23 hours long and a shift spanning the gap an hour shorter', () => {
      const from = at('2026-03-07T00:00:00Z');
      const to = at('2026-03-10T00:00:00Z');
      const allDay = workingWindows(
        { start: '00:00', end: '24:00', zone: 'America/New_York', days: [7] },
        from,
        to,
      );
      const early = workingWindows(
        { start: '01:00', end: '05:00', zone: 'America/New_York', days: [7] },
        from,
        to,
      );

      expect(allDay).toEqual([win('2026-03-08T05:00:00Z', '2026-03-09T04:00:00Z')]);
      expect(allDay[0]!.end - allDay[0]!.start).toBe(23 * HOUR);
      expect(early).toEqual([win('2026-03-08T06:00:00Z', '2026-03-08T09:00:00Z')]);
    });

    it('starts a shift whose start time is skipped when the clock jumps past it', () => {
      const windows = workingWindows(
        { start: '02:30', end: '05:00', zone: 'America/New_York', days: [7] },
        at('2026-03-08T00:00:00Z'),
        at('2026-03-09T00:00:00Z'),
      );

      expect(windows).toEqual([win('2026-03-08T07:00:00Z', '2026-03-08T09:00:00Z')]);
    });

    it('reads a repeated fall-back time at its first occurrence', () => {
      const windows = workingWindows(
        { start: '01:30', end: '03:00', zone: 'America/New_York', days: [7] },
        at('2026-11-01T00:00:00Z'),
        at('2026-11-02T00:00:00Z'),
      );

      // 01:30 EDT to 03:00 EST: two and a half hours of elapsed time.
      expect(windows).toEqual([win('2026-11-01T05:30:00Z', '2026-11-01T08:00:00Z')]);
    });

    it('follows London across both 2026 clock changes', () => {
      const spring = workingWindows(
        { start: '09:00', end: '17:00', zone: 'Europe/London', days: [1, 5] },
        at('2026-03-27T00:00:00Z'),
        at('2026-03-31T00:00:00Z'),
      );
      const autumnDay = workingWindows(
        { start: '00:00', end: '24:00', zone: 'Europe/London', days: [7] },
        at('2026-10-24T00:00:00Z'),
        at('2026-10-27T00:00:00Z'),
      );

      expect(spring).toEqual([
        win('2026-03-27T09:00:00Z', '2026-03-27T17:00:00Z'),
        win('2026-03-30T08:00:00Z', '2026-03-30T16:00:00Z'),
      ]);
      expect(autumnDay).toEqual([win('2026-10-24T23:00:00Z', '2026-10-26T00:00:00Z')]);
      expect(autumnDay[0]!.end - autumnDay[0]!.start).toBe(25 * HOUR);
    });

    it('places Kathmandu hours at the +05:45 offset', () => {
      const windows = workingWindows(
        { start: '09:00', end: '17:00', zone: 'Asia/Kathmandu' },
        at('2026-03-16T00:00:00Z'),
        at('2026-03-17T00:00:00Z'),
      );

      expect(windows).toEqual([win('2026-03-16T03:15:00Z', '2026-03-16T11:15:00Z')]);
    });

    it('includes the tail of an overnight shift that started the day before the window', () => {
      const windows = workingWindows(
        { start: '22:00', end: '06:00', zone: 'UTC', days: [1] },
        at('2026-03-17T00:00:00Z'),
        at('2026-03-17T12:00:00Z'),
      );

      expect(windows).toEqual([win('2026-03-17T00:00:00Z', '2026-03-17T06:00:00Z')]);
    });

    it('joins all-day windows of consecutive days into one', () => {
      const windows = workingWindows(
        { start: '00:00', end: '24:00', zone: 'Asia/Kathmandu', days: [1, 2, 3, 4, 5, 6, 7] },
        at('2026-03-16T12:00:00Z'),
        at('2026-03-19T12:00:00Z'),
      );

      expect(windows).toEqual([win('2026-03-16T12:00:00Z', '2026-03-19T12:00:00Z')]);
    });

    it('starts a Santiago day at the 01:00 its clock jumps to when midnight is skipped', () => {
      const windows = workingWindows(
        { start: '00:00', end: '24:00', zone: 'America/Santiago', days: [7] },
        at('2026-09-05T00:00:00Z'),
        at('2026-09-08T00:00:00Z'),
      );

      expect(windows).toEqual([win('2026-09-06T04:00:00Z', '2026-09-07T03:00:00Z')]);
    });
  });

  describe('firstInstantAt', () => {
    const newYork = IANAZone.create('America/New_York');

    it('gives the transition instant for a skipped time and the first occurrence of a repeated one', () => {
      expect(firstInstantAt({ year: 2026, month: 3, day: 8 }, 150, newYork)).toBe(at('2026-03-08T07:00:00Z'));
      expect(firstInstantAt({ year: 2026, month: 11, day: 1 }, 90, newYork)).toBe(at('2026-11-01T05:30:00Z'));
      expect(firstInstantAt({ year: 2026, month: 3, day: 8 }, 180, newYork)).toBe(at('2026-03-08T07:00:00Z'));
    });

    it('runs minutes past 1440 into the next day', () => {
      expect(firstInstantAt({ year: 2026, month: 3, day: 7 }, 1440 + 360, newYork)).toBe(
        at('2026-03-08T10:00:00Z'),
      );
    });
  });
});
