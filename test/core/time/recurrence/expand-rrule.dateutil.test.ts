import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isDomainError } from '../../../../lambdas/core/errors.js';
import { expandRrule } from '../../../../lambdas/core/time/recurrence/expand-rrule.js';
import { formatWallClock } from '../../../../lambdas/core/time/recurrence/wall-clock-text.js';
import { ZoneOffsets } from '../../../../lambdas/core/time/recurrence/zone-offsets.js';
import { RFC_5545, wallClockToInstant } from '../../../../lambdas/core/time/wall-clock-to-instant.js';
import { needs, PYTHON_DATEUTIL } from '../../../support/system-parts.js';
import { beyondTzDataDrift, firstReadingDrift } from '../../../support/tz-data-drift.js';
import { type ReferenceCase, type ReferenceResult, runPythonReference } from './python-reference.js';
import { ruleCase } from './rule-arbitrary.js';

/** Skipped without python-dateutil; describe factories still run then, so the reference is not called. */
const withDateutil = needs(PYTHON_DATEUTIL);

// Python runs and thousands of comparisons: generous limits for a loaded machine.
const SLOW_TEST_MS = 120_000;

const corpus = JSON.parse(
  readFileSync(new URL('../../../fixtures/rrule-corpus.json', import.meta.url), 'utf8'),
) as ReferenceCase[];

/**
 * Our result in the reference's shape; a rule we refuse as never occurring compares as refused.
 * A rule that needs more work than one call may do (WORK_LIMIT_EXCEEDED) has no dateutil
 * counterpart: dateutil simply takes as long as it takes.
 */
function ours(c: ReferenceCase): ReferenceResult | { refused: true } | { overBudget: true } {
  let result: ReturnType<typeof expandRrule>;
  try {
    result = expandRrule({
      rrule: c.rrule,
      dtstart: c.dtstart,
      timezone: c.timezone,
      durationMinutes: c.duration_minutes,
      count: c.count,
      exdates: c.exdates,
      after: c.after,
      before: c.before,
    });
  } catch (error) {
    if (isDomainError(error, 'INVALID_RRULE') && /never occurs/.test(error.message)) return { refused: true };
    if (isDomainError(error, 'WORK_LIMIT_EXCEEDED')) return { overBudget: true };
    throw error;
  }
  return {
    instances: result.instances.map((i) => ({ start: i.start, end: i.end, local_start: i.localStart })),
    truncated: result.truncated,
    ...(result.nextAfter === undefined ? {} : { next_after: result.nextAfter }),
  };
}

/** The reference result with dateutil's refusal message reduced to the fact of refusal. */
function theirs(result: ReferenceResult | undefined) {
  return result && 'refused' in result ? { refused: true } : result;
}

const DAY_MS = 86_400_000;

/**
 * Local days (wall ms at midnight) starting the day before each offset change of `zone` in
 * [fromYear, toYear], found with luxon's own offset lookup, not the code under test.
 */
function transitionDays(zone: string, fromYear: number, toYear: number): number[] {
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

describe('expandRrule against python-dateutil + zoneinfo', withDateutil, () => {
  describe('the committed corpus (test/fixtures/rrule-corpus.json)', () => {
    const reference = withDateutil.skip ? undefined : runPythonReference({ expand: corpus });

    it('holds at least 30 rules', () => {
      expect(corpus.length).toBeGreaterThanOrEqual(30);
    });

    it.each(corpus.map((c) => [c.id, c] as const))('gives the same instances for %s', (id, c) => {
      const expected = reference!.expand[id]!;
      expect('instances' in expected && expected.instances.length).toBeGreaterThan(0);
      expect(ours(c)).toEqual(expected);
    });
  });

  describe('randomly generated rules (fast-check, fixed seed)', () => {
    it(
      'gives the same instances as dateutil for 300 rules, windows and exdates',
      () => {
        const cases = fc
          .sample(ruleCase, { seed: 20260301, numRuns: 300 })
          .map((c, i) => ({ ...c, id: `random-${i}` }));
        const reference = runPythonReference({ expand: cases });
        let overBudget = 0;
        for (const c of cases) {
          const result = ours(c);
          // Refused for the work it needs: allowed for a few rare-date rules, counted below.
          if ('overBudget' in result) {
            overBudget++;
            continue;
          }
          expect({ case: c, result }).toEqual({ case: c, result: theirs(reference.expand[c.id]) });
        }
        console.info(`random rules refused for their work: ${overBudget} of ${cases.length}`);
        expect(overBudget).toBeLessThanOrEqual(3);
      },
      SLOW_TEST_MS,
    );
  });
});

/** Sub-daily rules whose BYHOUR/BYMINUTE/BYSECOND may or may not lie on the INTERVAL grid. */
const subDailyGridCase = fc
  .record({
    freq: fc.constantFrom('HOURLY', 'MINUTELY', 'SECONDLY'),
    interval: fc.constantFrom(2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 30, 45, 90, 120, 360),
    byhour: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 2 }), {
      nil: undefined,
    }),
    byminute: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 2 }), {
      nil: undefined,
    }),
    bysecond: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 2 }), {
      nil: undefined,
    }),
    second: fc.integer({ min: 0, max: 86_399 }),
  })
  .filter((g) => g.byhour !== undefined || g.byminute !== undefined || g.bysecond !== undefined)
  .map((g): ReferenceCase => {
    const parts = [`FREQ=${g.freq}`, `INTERVAL=${g.interval}`];
    if (g.byhour) parts.push(`BYHOUR=${g.byhour.join(',')}`);
    if (g.byminute) parts.push(`BYMINUTE=${g.byminute.join(',')}`);
    if (g.bysecond) parts.push(`BYSECOND=${g.bysecond.join(',')}`);
    const dtstart = formatWallClock(Date.UTC(2026, 0, 1) + g.second * 1000);
    return { id: '', rrule: parts.join(';'), dtstart, timezone: 'UTC', count: 3 };
  });

describe('expandRrule on sub-daily rules off the INTERVAL grid', withDateutil, () => {
  it(
    'finds no instance exactly when dateutil finds none (300 rules), refusing them as never occurring',
    () => {
      const cases = fc
        .sample(subDailyGridCase, { seed: 86400, numRuns: 300 })
        .map((c, i) => ({ ...c, id: `grid-${i}` }));
      const reference = runPythonReference({ expand: cases });
      const startsOf = (r: ReturnType<typeof ours> | ReferenceResult | undefined) =>
        r && 'instances' in r ? r.instances.map((i) => i.start) : [];
      let refused = 0;
      let overBudget = 0;
      for (const c of cases) {
        const result = ours(c);
        if ('refused' in result) refused++;
        // Off-grid sub-daily rules examine every period of a day to find a few instances; the
        // ones that need more work than one call may do are refused, counted below.
        if ('overBudget' in result) {
          overBudget++;
          continue;
        }
        expect({ case: c, starts: startsOf(result) }).toEqual({
          case: c,
          starts: startsOf(reference.expand[c.id]),
        });
      }
      expect(refused).toBeGreaterThan(20);
      expect(refused).toBeLessThan(280);
      console.info(`sub-daily grid cases refused for their work: ${overBudget} of ${cases.length}`);
      expect(overBudget).toBeLessThanOrEqual(30);
    },
    SLOW_TEST_MS,
  );
});

/** The mismatches zoneinfo's data explains (test/support/tz-data-drift.ts) are reported, not failed. */
function beyondDataDrift<T extends { zone: string; wall: number; zoneinfo: string }>(mismatches: T[]): T[] {
  return beyondTzDataDrift(mismatches, (m) => firstReadingDrift(m.zone, m.wall, Date.parse(m.zoneinfo)));
}

describe('wallClockToInstant (RFC_5545) against zoneinfo (fold=0)', withDateutil, () => {
  it(
    'places every quarter hour around each 2024–2026 offset change of every zone as zoneinfo does',
    () => {
      const zones = Intl.supportedValuesOf('timeZone');
      const items = zones.flatMap((zone) =>
        transitionDays(zone, 2024, 2026).flatMap((day) => quarterHours(day).map((wall) => ({ zone, wall }))),
      );
      expect(items.length).toBeGreaterThan(50_000);
      const expected = runPythonReference({
        convert: items.map((i) => ({ zone: i.zone, wall: formatWallClock(i.wall) })),
      });
      const byZone = new Map<string, ZoneOffsets>();
      const actual = items.map(({ zone, wall }) => {
        const offsets = byZone.get(zone) ?? new ZoneOffsets(zone);
        byZone.set(zone, offsets);
        return `${formatWallClock(wallClockToInstant(wall, offsets, RFC_5545))}+00:00`;
      });
      const mismatches = beyondDataDrift(
        items
          .map((item, i) => ({ ...item, zoneinfo: expected.convert[i]!, ours: actual[i] }))
          .filter((m) => m.ours !== m.zoneinfo),
      );
      expect(mismatches.slice(0, 5)).toEqual([]);
    },
    SLOW_TEST_MS,
  );

  it(
    'agrees on historical oddities: skipped days, half-hour and LMT offsets',
    () => {
      // Europe/Amsterdam before 1940 is left out on purpose: ICU links it to Brussels, while
      // Debian's tzdata keeps Amsterdam's own history (backzone), so the two data sets differ.
      const ranges: [zone: string, fromYear: number, toYear: number][] = [
        ['Pacific/Apia', 2011, 2012], // skipped 2011-12-30 (-10 → +14)
        ['Pacific/Kwajalein', 1993, 1993], // skipped a day (-12 → +12)
        ['Asia/Kathmandu', 1985, 1986], // +05:30 → +05:45
        ['America/Caracas', 2007, 2007], // -04:00 → -04:30
        ['America/Caracas', 2016, 2016],
        ['Europe/Moscow', 2011, 2011],
        ['Europe/Moscow', 2014, 2014],
        ['Australia/Lord_Howe', 1985, 1986], // 30-minute DST
        ['America/Sitka', 1867, 1867], // LMT +14:58:47 → -09:01:13: a day repeated
        ['America/Metlakatla', 1867, 1867],
        ['Asia/Manila', 1844, 1845], // LMT -15:56 → +08:04: a day skipped
        ['Europe/Dublin', 1916, 1917], // Dublin Mean Time -00:25:21
      ];
      const items = ranges.flatMap(([zone, from, to]) =>
        transitionDays(zone, from, to).flatMap((day) => quarterHours(day).map((wall) => ({ zone, wall }))),
      );
      expect(items.length).toBeGreaterThan(5_000);
      const expected = runPythonReference({
        convert: items.map((i) => ({ zone: i.zone, wall: formatWallClock(i.wall) })),
      });
      const mismatches = items
        .map((item, i) => ({
          zone: item.zone,
          wall: item.wall,
          text: formatWallClock(item.wall),
          ours: `${formatWallClock(wallClockToInstant(item.wall, new ZoneOffsets(item.zone), RFC_5545))}+00:00`,
          zoneinfo: expected.convert[i] ?? '',
        }))
        .filter((m) => m.ours !== m.zoneinfo);
      expect(beyondDataDrift(mismatches).slice(0, 5)).toEqual([]);
    },
    SLOW_TEST_MS,
  );

  it(
    'agrees on random wall-clock times from 1900 to 2100 in DST-observing zones',
    () => {
      const zones = [
        'America/New_York',
        'Europe/London',
        'Australia/Sydney',
        'Australia/Lord_Howe',
        'Pacific/Chatham',
        'America/Santiago',
        'Asia/Tehran',
        'Africa/Casablanca',
        'America/Havana',
        'Europe/Dublin',
      ];
      const items = fc.sample(
        fc.record({
          zone: fc.constantFrom(...zones),
          wall: fc
            .integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) })
            .map((ms) => ms - (ms % 60_000)),
        }),
        { seed: 5545, numRuns: 20_000 },
      );
      const expected = runPythonReference({
        convert: items.map((i) => ({ zone: i.zone, wall: formatWallClock(i.wall) })),
      });
      const mismatches = items
        .map((item, i) => ({
          zone: item.zone,
          wall: item.wall,
          text: formatWallClock(item.wall),
          ours: `${formatWallClock(wallClockToInstant(item.wall, new ZoneOffsets(item.zone), RFC_5545))}+00:00`,
          zoneinfo: expected.convert[i] ?? '',
        }))
        .filter((m) => m.ours !== m.zoneinfo);
      expect(beyondDataDrift(mismatches).slice(0, 5)).toEqual([]);
    },
    SLOW_TEST_MS,
  );
});
