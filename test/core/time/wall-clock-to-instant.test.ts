import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ZoneOffsets } from '../../../lambdas/core/time/recurrence/zone-offsets.js';
import {
  CLOCK_READS,
  type DstPolicy,
  RFC_5545,
  wallClockToInstant,
} from '../../../lambdas/core/time/wall-clock-to-instant.js';
import { needs, PYTHON, PYTHON_DATEUTIL } from '../../support/system-parts.js';
import { beyondTzDataDrift, readingsDrift } from '../../support/tz-data-drift.js';

const NEW_YORK = 'America/New_York';
const SPRING_GAP_0230 = Date.UTC(2026, 2, 8, 2, 30); // skipped: 02:00 EST → 03:00 EDT
const FALL_REPEAT_0130 = Date.UTC(2026, 10, 1, 1, 30); // shown twice: 02:00 EDT → 01:00 EST
const REJECT_GAP: DstPolicy = { gap: 'reject', overlap: 'earlier' };
const LATER: DstPolicy = { gap: 'shift-forward', overlap: 'later' };

describe('wallClockToInstant', () => {
  describe('an ordinary wall time', () => {
    it('reads it with the offset in force, whatever the policy', () => {
      for (const policy of [RFC_5545, CLOCK_READS, REJECT_GAP, LATER]) {
        expect(wallClockToInstant(Date.UTC(2026, 6, 1, 9), NEW_YORK, policy)).toBe(Date.UTC(2026, 6, 1, 13));
      }
    });

    it('accepts a luxon zone and an offset lookup as well as a name', () => {
      const kathmandu = Date.UTC(2026, 0, 1, 6, 15);
      const wall = Date.UTC(2026, 0, 1, 12);

      expect(wallClockToInstant(wall, IANAZone.create('Asia/Kathmandu'), RFC_5545)).toBe(kathmandu);
      expect(wallClockToInstant(wall, new ZoneOffsets('Asia/Kathmandu'), RFC_5545)).toBe(kathmandu);
    });
  });

  describe('a spring-forward gap time', () => {
    it("'shift-forward' reads it with the offset before the gap (RFC 5545): 02:30 → 03:30 EDT", () => {
      expect(wallClockToInstant(SPRING_GAP_0230, NEW_YORK, RFC_5545)).toBe(Date.UTC(2026, 2, 8, 7, 30));
    });

    it("'transition' gives the instant the clock jumps over it: 02:30 → 03:00 EDT", () => {
      expect(wallClockToInstant(SPRING_GAP_0230, NEW_YORK, CLOCK_READS)).toBe(Date.UTC(2026, 2, 8, 7));
    });

    it("'reject' gives no instant", () => {
      expect(wallClockToInstant(SPRING_GAP_0230, NEW_YORK, REJECT_GAP)).toBeNull();
    });
  });

  describe('a repeated fall-back time', () => {
    it("'earlier' gives the first occurrence: 01:30 EDT", () => {
      expect(wallClockToInstant(FALL_REPEAT_0130, NEW_YORK, RFC_5545)).toBe(Date.UTC(2026, 10, 1, 5, 30));
    });

    it("'later' gives the second occurrence: 01:30 EST", () => {
      expect(wallClockToInstant(FALL_REPEAT_0130, NEW_YORK, LATER)).toBe(Date.UTC(2026, 10, 1, 6, 30));
    });

    it("'reject' applies to gaps only: a repeated time still has an instant", () => {
      expect(wallClockToInstant(FALL_REPEAT_0130, NEW_YORK, REJECT_GAP)).toBe(Date.UTC(2026, 10, 1, 5, 30));
    });
  });

  describe('against Python zoneinfo', needs(PYTHON_DATEUTIL), () => {
    // Africa/Casablanca is left out: its predicted future offsets differ between Debian's tzdata and
    // the ICU data in Node, so the two references disagree on data, not on policy.
    const zones = [
      'America/New_York',
      'Europe/London',
      'Europe/Dublin',
      'Australia/Sydney',
      'Australia/Lord_Howe', // 30-minute DST
      'Pacific/Chatham',
      'America/Santiago', // changes at midnight
      'Asia/Tehran',
      'America/Havana', // changes at midnight
      'Pacific/Apia', // skipped a whole day in 2011
    ];

    it('every policy agrees with zoneinfo (fold=0, fold=1, round trip) on times around each change and at random', () => {
      const aroundChanges = zones.flatMap((zone) =>
        changeDays(zone, 2016, 2027).flatMap((day) => quarterHours(day).map((wall) => ({ zone, wall }))),
      );
      const random = fc.sample(
        fc.record({
          zone: fc.constantFrom(...zones),
          wall: fc
            .integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) })
            .map((ms) => ms - (ms % 60_000)),
        }),
        { seed: 5545, numRuns: 3_000 },
      );
      const items = [...aroundChanges, ...random];
      const reference = zoneinfoReference(items);
      const gaps = reference.filter((r) => r.transition !== null).length;
      const overlaps = reference.filter((r) => r.transition === null && r.fold0 !== r.fold1).length;
      // The sample must hold both edge cases in numbers, or the comparison proves little.
      expect(gaps).toBeGreaterThan(300);
      expect(overlaps).toBeGreaterThan(300);

      const mismatches = items.flatMap(({ zone, wall }, i) => {
        const ref = reference[i]!;
        const exists = ref.transition === null;
        const expected = {
          rfc5545: ref.fold0,
          later: exists ? Math.max(ref.fold0, ref.fold1) : ref.fold0,
          reject: exists ? ref.fold0 : null,
          clockReads: exists ? Math.min(ref.fold0, ref.fold1) : ref.transition,
        };
        const actual = {
          rfc5545: wallClockToInstant(wall, zone, RFC_5545),
          later: wallClockToInstant(wall, zone, LATER),
          reject: wallClockToInstant(wall, zone, REJECT_GAP),
          clockReads: wallClockToInstant(wall, zone, CLOCK_READS),
        };
        return JSON.stringify(actual) === JSON.stringify(expected)
          ? []
          : [{ zone, wall, readings: exists ? [ref.fold0, ref.fold1] : [], actual, expected }];
      });
      const beyondDrift = beyondTzDataDrift(mismatches, (m) => readingsDrift(m.zone, m.wall, m.readings));
      expect(beyondDrift.slice(0, 5).map((m) => ({ ...m, wall: new Date(m.wall).toISOString() }))).toEqual(
        [],
      );
    }, 120_000);
  });
});

interface ZoneinfoReading {
  /** zoneinfo's instant with fold=0 (RFC 5545: offset before a gap, first of a repeat). */
  fold0: number;
  /** zoneinfo's instant with fold=1 (offset after a gap, second of a repeat). */
  fold1: number;
  /** For a skipped time, the instant the clock jumped over it, found by bisection; else null. */
  transition: number | null;
}

// An independent reading of each wall time: zoneinfo places it both ways and round-trips fold=0
// to tell whether it exists; for a skipped time it bisects for the first instant whose wall clock
// reads it or later.
const ZONEINFO_SCRIPT = `
import json, sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo
EPOCH = datetime(1970, 1, 1)
def ms(dt): return round(dt.timestamp() * 1000)
def reads(t, zone): return t + round(datetime.fromtimestamp(t / 1000, zone).utcoffset() / timedelta(milliseconds=1))
out = []
for item in json.load(sys.stdin):
    zone = ZoneInfo(item["zone"])
    wall = EPOCH + timedelta(milliseconds=item["wall"])
    first = wall.replace(tzinfo=zone, fold=0)
    second = wall.replace(tzinfo=zone, fold=1)
    exists = first.astimezone(timezone.utc).astimezone(zone).replace(tzinfo=None) == wall
    transition = None
    if not exists:
        low, high = sorted([ms(first), ms(second)])
        while high - low > 1:
            mid = (low + high) // 2
            if reads(mid, zone) >= item["wall"]: high = mid
            else: low = mid
        transition = high
    out.append({"fold0": ms(first), "fold1": ms(second), "transition": transition})
json.dump(out, sys.stdout)
`;

function zoneinfoReference(items: { zone: string; wall: number }[]): ZoneinfoReading[] {
  const run = spawnSync(PYTHON, ['-c', ZONEINFO_SCRIPT], {
    input: JSON.stringify(items),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`zoneinfo reference failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as ZoneinfoReading[];
}

const DAY_MS = 86_400_000;

/** The local day before each day (UTC) on which `zone` changed its offset, as wall milliseconds. */
function changeDays(zone: string, fromYear: number, toYear: number): number[] {
  const luxonZone = IANAZone.create(zone);
  const days: number[] = [];
  let previous = luxonZone.offset(Date.UTC(fromYear, 0, 1));
  for (let t = Date.UTC(fromYear, 0, 1) + DAY_MS; t < Date.UTC(toYear + 1, 0, 1); t += DAY_MS) {
    const offset = luxonZone.offset(t);
    if (offset !== previous)
      days.push(Math.floor((t - DAY_MS + previous * 60_000) / DAY_MS) * DAY_MS - DAY_MS);
    previous = offset;
  }
  return days;
}

/** Every quarter hour over three local days starting at `day`. */
function quarterHours(day: number): number[] {
  return Array.from({ length: 3 * 96 }, (_, i) => day + i * 15 * 60_000);
}
