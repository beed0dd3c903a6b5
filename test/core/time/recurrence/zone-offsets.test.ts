import fc from 'fast-check';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { instantToWallClock, ZoneOffsets } from '../../../../lambdas/core/time/recurrence/zone-offsets.js';
import { RFC_5545, wallClockToInstant } from '../../../../lambdas/core/time/wall-clock-to-instant.js';

const HOUR = 3_600_000;

describe('zone-offsets', () => {
  describe('instantToWallClock', () => {
    it("shows an instant on the zone's wall clock", () => {
      expect(instantToWallClock(Date.UTC(2026, 2, 8, 7, 30), 'America/New_York')).toBe(
        Date.UTC(2026, 2, 8, 3, 30),
      );
    });

    it('round-trips with wallClockToInstant for every instant outside a repeated hour', () => {
      fc.assert(
        fc.property(
          fc.constantFrom('America/New_York', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Europe/London'),
          fc.integer({ min: Date.UTC(1970, 0, 1) / 60_000, max: Date.UTC(2040, 0, 1) / 60_000 }),
          (zone, minutes) => {
            const instant = minutes * 60_000;
            const wall = instantToWallClock(instant, zone);
            const back = wallClockToInstant(wall, zone, RFC_5545);
            // In a repeated hour the first occurrence comes back, which is earlier.
            expect(back === instant || back < instant).toBe(true);
            expect(instantToWallClock(back, zone)).toBe(wall);
          },
        ),
        { seed: 11, numRuns: 3000 },
      );
    });
  });

  describe('ZoneOffsets#offsetAt', () => {
    it('returns what luxon reads for any sequence of lookups, despite remembering stretches', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(
            'America/Santiago',
            'Europe/Berlin',
            'Australia/Lord_Howe',
            'Pacific/Apia',
            'Asia/Tehran',
          ),
          fc.integer({ min: Date.UTC(2005, 0, 1), max: Date.UTC(2030, 0, 1) }),
          // Mostly small steps (as an expansion makes), sometimes jumps back and forth.
          fc.array(
            fc.oneof(
              fc.integer({ min: -3 * HOUR, max: 30 * HOUR }),
              fc.integer({ min: -400 * 24 * HOUR, max: 400 * 24 * HOUR }),
            ),
            {
              minLength: 1,
              maxLength: 60,
            },
          ),
          (zone, start, steps) => {
            const offsets = new ZoneOffsets(zone);
            const luxon = IANAZone.create(zone);
            let t = start;
            for (const step of steps) {
              t += step;
              expect(offsets.offsetAt(t)).toBe(luxon.offset(t) * 60_000);
            }
          },
        ),
        { seed: 7, numRuns: 400 },
      );
    });

    it('reads offsets that include seconds (local mean time)', () => {
      // Dublin Mean Time was -00:25:21.
      expect(new ZoneOffsets('Europe/Dublin').offsetAt(Date.UTC(1900, 0, 1))).toBe(-(25 * 60 + 21) * 1000);
    });
  });
});
