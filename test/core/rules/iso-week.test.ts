import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isoWeekOf, isoWeekWindow, weekCandidates } from '../../../lambdas/core/rules/iso-week.js';

const ZONES = ['UTC', 'Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Kiritimati'];

describe('iso-week', () => {
  describe('isoWeekWindow', () => {
    it('contains every instant of the week it names, from Monday 00:00 to the next Monday, local time', () => {
      fc.assert(
        fc.property(
          fc.date({
            min: new Date('1990-01-01T00:00:00Z'),
            max: new Date('2100-01-01T00:00:00Z'),
            noInvalidDate: true,
          }),
          fc.constantFrom(...ZONES),
          (instant, zone) => {
            const window = isoWeekWindow(isoWeekOf(instant, zone), zone);
            const start = DateTime.fromISO(window.start, { setZone: true });

            expect(Date.parse(window.start)).toBeLessThanOrEqual(instant.getTime());
            expect(Date.parse(window.end)).toBeGreaterThan(instant.getTime());
            expect(start.setZone(zone).toFormat('ccc HH:mm')).toBe('Mon 00:00');
            expect(DateTime.fromISO(window.end).setZone(zone).diff(start.setZone(zone), 'days').days).toBe(7);
          },
        ),
        { numRuns: 2000 },
      );
    });

    it('spans 167 hours in the week clocks go forward (DST) and 169 in the week they go back', () => {
      const hours = (week: string) => {
        const window = isoWeekWindow(week, 'Europe/London');
        return (Date.parse(window.end) - Date.parse(window.start)) / 3_600_000;
      };

      expect(hours('2026-W13')).toBe(167);
      expect(hours('2026-W43')).toBe(169);
    });

    it.each(['2026-48', '2026-W5', '2025-W53', '2026-W00', 'W48', ''])(
      'refuses "%s", naming the shape and an example',
      (text) => {
        expect(() => isoWeekWindow(text, 'UTC')).toThrow(
          expect.objectContaining({
            code: 'INVALID_INPUT',
            details: expect.objectContaining({ field: 'week', example: '2026-W48' }),
          }),
        );
      },
    );

    it('accepts week 53 of a long year', () => {
      expect(isoWeekWindow('2026-W53', 'UTC')).toEqual({
        week: '2026-W53',
        start: '2026-12-28T00:00:00.000Z',
        end: '2027-01-04T00:00:00.000Z',
      });
    });

    it('names the shape expected and repeats a long value shortened, not whole', () => {
      expect(() => isoWeekWindow('x'.repeat(5000), 'UTC')).toThrow(
        /^"x{64}…" \(5000 characters\) is not an ISO week: expected YYYY-Www.*"2026-W48"\.$/,
      );
    });
  });

  describe('weekCandidates', () => {
    const now = new Date('2026-11-25T12:00:00Z');

    it('offers the current week and the 52 before it, most recent first', () => {
      const weeks = weekCandidates(now, 'UTC', '');

      expect(weeks).toHaveLength(53);
      expect(weeks.slice(0, 2)).toEqual(['2026-W48', '2026-W47']);
      expect(weeks.at(-1)).toBe('2025-W48');
    });

    it('offers every week of a typed year that starts with what was typed', () => {
      expect(weekCandidates(now, 'UTC', '2020-w5')).toEqual(['2020-W53', '2020-W52', '2020-W51', '2020-W50']);
      expect(weekCandidates(now, 'UTC', '2021')).toHaveLength(52);
    });
  });
});
