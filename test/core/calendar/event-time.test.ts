import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { resolveEventTime } from '../../../lambdas/core/calendar/event-time.js';
import { isDomainError } from '../../../lambdas/core/errors.js';

const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Apia'];

const wallTime = fc
  .record({
    year: fc.integer({ min: 1990, max: 2040 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
  })
  .map(({ year, month, day, hour, minute }) => {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:00`;
  });

describe('resolveEventTime', () => {
  it('gives an instant whose wall clock in the zone is the one written, or the gap-shifted one', () => {
    fc.assert(
      fc.property(wallTime, fc.constantFrom(...ZONES), (local, zone) => {
        const { date_time } = resolveEventTime({ date_time: local, time_zone: zone }, 'UTC', 'start') as {
          date_time: string;
        };
        const stored = DateTime.fromISO(date_time, { setZone: true });
        const shown = stored.setZone(zone);

        const written = DateTime.fromISO(local, { zone: 'utc' });
        const wall = DateTime.fromISO(shown.toFormat("yyyy-MM-dd'T'HH:mm:ss"), { zone: 'utc' });
        // Equal, except inside a spring-forward gap, where the time moves forward by at most 2 h.
        const shiftMinutes = wall.diff(written, 'minutes').minutes;
        expect(shiftMinutes).toBeGreaterThanOrEqual(0);
        expect(shiftMinutes).toBeLessThanOrEqual(120);
        // The offset written is the zone's real offset at that instant.
        expect(stored.offset).toBe(shown.offset);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a time that has an offset as written, and the zone as IANA spells it', () => {
    expect(
      resolveEventTime(
        { date_time: '2026-11-26T09:00:00-05:00', time_zone: 'america/new_york' },
        'UTC',
        'end',
      ),
    ).toEqual({ date_time: '2026-11-26T09:00:00-05:00', time_zone: 'America/New_York' });
  });

  it.each([
    ['2026-02-30', 'INVALID_DATETIME', 'start'],
    ['2026-02-30T09:00:00', 'INVALID_DATETIME', 'start.date_time'],
    ['next tuesday', 'INVALID_DATETIME', 'start.date_time'],
  ])('refuses %s with %s naming %s', (input, code, field) => {
    const error = (() => {
      try {
        return resolveEventTime(input, 'UTC', 'start');
      } catch (caught) {
        return caught;
      }
    })();

    expect(isDomainError(error, code as 'INVALID_DATETIME')).toBe(true);
    expect(error).toMatchObject({ details: { field } });
  });
});
