import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isDomainError } from '../../../../lambdas/core/errors.js';
import { formatInstant, formatUtc } from '../../../../lambdas/core/time/instants.js';
import {
  formatUtcMs,
  formatWallClock,
  formatWithOffset,
  parseWallClock,
} from '../../../../lambdas/core/time/recurrence/wall-clock-text.js';

function rejection(text: string): string {
  try {
    parseWallClock(text, 'dtstart');
  } catch (error) {
    if (isDomainError(error, 'INVALID_DATETIME')) return error.message;
    throw error;
  }
  throw new Error(`"${text}" was accepted`);
}

describe('wall-clock-text', () => {
  describe('parseWallClock', () => {
    it('reads a local date-time with or without seconds into wall milliseconds', () => {
      expect(parseWallClock('2026-03-01T09:00:00', 'dtstart')).toBe(Date.UTC(2026, 2, 1, 9));
      expect(parseWallClock('2026-03-01T09:05', 'dtstart')).toBe(Date.UTC(2026, 2, 1, 9, 5));
      expect(parseWallClock(' 2026-03-01 09:05:07 ', 'dtstart')).toBe(Date.UTC(2026, 2, 1, 9, 5, 7));
    });

    it('keeps two-digit years as they are (Date.UTC would make 0050 into 1950)', () => {
      expect(new Date(parseWallClock('0050-01-01T00:00', 'dtstart')).getUTCFullYear()).toBe(50);
    });

    it('rejects an offset, telling that the zone comes from "timezone"', () => {
      expect(rejection('2026-03-01T09:00:00Z')).toMatch(/drop the "Z"\/offset/);
      expect(rejection('2026-03-01T09:00:00-05:00')).toMatch(/drop the "Z"\/offset/);
    });

    it('rejects a date without a time, and impossible dates, naming the field', () => {
      expect(rejection('2026-03-01')).toMatch(/add one, e\.g\. "T09:00:00"/);
      expect(rejection('2026-02-30T09:00')).toMatch(/^"dtstart" must be a local date-time/);
      expect(rejection('2026-03-01T24:00')).toMatch(/^"dtstart" must be a local date-time/);
    });
  });

  describe('formatUtcMs', () => {
    it('writes exactly what formatUtc writes, for any instant from year 1 to 9999', () => {
      fc.assert(
        fc.property(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 }), (ms) => {
          expect(formatUtcMs(ms)).toBe(formatUtc(DateTime.fromMillis(ms)));
        }),
        { seed: 3, numRuns: 5000 },
      );
    });
  });

  describe('formatWallClock', () => {
    it('writes milliseconds only when there are some', () => {
      expect(formatWallClock(Date.UTC(2026, 2, 1, 9))).toBe('2026-03-01T09:00:00');
      expect(formatWallClock(Date.UTC(2026, 2, 1, 9, 0, 0, 5))).toBe('2026-03-01T09:00:00.005');
    });
  });

  describe('formatWithOffset', () => {
    it('writes the instant on the zone clock with its offset, like formatInstant', () => {
      const instant = Date.UTC(2026, 2, 8, 7, 30);
      expect(formatWithOffset(instant, -4 * 3_600_000)).toBe('2026-03-08T03:30:00-04:00');
      expect(formatWithOffset(instant, -4 * 3_600_000)).toBe(
        formatInstant(DateTime.fromMillis(instant, { zone: 'America/New_York' })),
      );
    });

    it('rounds a local-mean-time offset to the minute and still names the same instant', () => {
      const instant = Date.UTC(1900, 0, 1, 12);
      const text = formatWithOffset(instant, -(25 * 60 + 21) * 1000); // Dublin Mean Time
      expect(text).toBe('1900-01-01T11:35:00-00:25');
      expect(Date.parse(text)).toBe(instant);
    });
  });
});
