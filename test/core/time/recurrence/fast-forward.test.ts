import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandRrule } from '../../../../lambdas/core/time/recurrence/expand-rrule.js';
import { fastForwardStart } from '../../../../lambdas/core/time/recurrence/fast-forward.js';
import { pinDtstartDefaults, walkWallClock } from '../../../../lambdas/core/time/recurrence/floating-walk.js';
import { parseRule, type RecurrenceRule } from '../../../../lambdas/core/time/recurrence/parse-rule.js';
import { parseWallClock } from '../../../../lambdas/core/time/recurrence/wall-clock-text.js';
import { ZoneOffsets } from '../../../../lambdas/core/time/recurrence/zone-offsets.js';
import { RFC_5545, wallClockToInstant } from '../../../../lambdas/core/time/wall-clock-to-instant.js';
import { WorkBudget } from '../../../../lambdas/core/work-budget.js';
import { type RuleCase, ruleCase } from './rule-arbitrary.js';

const DAY_MS = 86_400_000;
const MAX_ZONE_OFFSET_MS = 16 * 3_600_000;

/** The first `n` wall times at or after `from`, walking `rule` from `dtstart`. */
function wallsFrom(rule: RecurrenceRule, dtstart: number, from: number, n: number): number[] {
  const walls: number[] = [];
  walkWallClock(
    rule,
    dtstart,
    undefined,
    (wall) => {
      if (wall >= from) walls.push(wall);
      return walls.length < n;
    },
    new WorkBudget('test', '', Number.POSITIVE_INFINITY),
  );
  return walls;
}

/** How far past DTSTART a window may lie, per frequency, keeping the naive walk affordable. */
function horizonDays(rule: RecurrenceRule): number {
  return [80 * 365, 60 * 365, 40 * 365, 12 * 365, 90, 20, 3][rule.freq]!;
}

/**
 * The naive expansion: walk the rule as written from its real DTSTART, place every wall time
 * in the zone, keep the window, drop exdates and repeats, sort, page. No pinning, no fast-forward.
 */
function naiveExpansion(c: RuleCase) {
  const rule = parseRule(c.rrule);
  const offsets = new ZoneOffsets(c.timezone);
  const after = c.after === undefined ? Number.NEGATIVE_INFINITY : Date.parse(c.after);
  const end = Math.min(
    c.before === undefined ? Number.POSITIVE_INFINITY : Date.parse(c.before),
    rule.until ?? Number.POSITIVE_INFINITY,
  );
  const limit = c.count ?? 100;
  const excluded = new Set(
    (c.exdates ?? []).map((x) => wallClockToInstant(parseWallClock(x, 'exdates'), offsets, RFC_5545)),
  );
  const starts = new Set<number>();
  walkWallClock(
    rule,
    parseWallClock(c.dtstart, 'dtstart'),
    undefined,
    (wall) => {
      if (wall - MAX_ZONE_OFFSET_MS > end) return false;
      const sorted = [...starts].sort((a, b) => a - b);
      if (sorted.length > limit && wall - MAX_ZONE_OFFSET_MS > sorted[limit]!) return false;
      const start = wallClockToInstant(wall, offsets, RFC_5545);
      if (start >= after && start <= end && !excluded.has(start)) starts.add(start);
      return true;
    },
    new WorkBudget('test', '', Number.POSITIVE_INFINITY),
  );
  const sorted = [...starts].sort((a, b) => a - b);
  return {
    starts: sorted.slice(0, limit).map((ms) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`),
    truncated: sorted.length > limit,
  };
}

function withoutEnd(rrule: string): string {
  return rrule
    .split(';')
    .filter((part) => !/^(COUNT|UNTIL)=/.test(part))
    .join(';');
}

/** Typical window length per frequency (YEARLY … SECONDLY), in days, so most windows hold instances. */
const WINDOW_DAYS = [800, 120, 30, 10, 2, 0.5, 0.1];

/** Rules without COUNT or UNTIL, a DTSTART far before the window, and the window itself. */
const farWindowCase = fc
  .record({
    base: ruleCase,
    farPermille: fc.integer({ min: 0, max: 1000 }),
    windowTenths: fc.integer({ min: 2, max: 30 }),
  })
  .map(({ base, farPermille, windowTenths }) => {
    // Neither COUNT (which forbids fast-forwarding) nor UNTIL (which would empty far windows).
    const rrule = withoutEnd(base.rrule);
    const rule = parseRule(rrule);
    const dtstart = parseWallClock(base.dtstart, 'dtstart');
    const minutes = (days: number) => Math.floor((days * DAY_MS) / 60_000) * 60_000;
    const after = dtstart + minutes((farPermille / 1000) * horizonDays(rule));
    const before = after + minutes((windowTenths / 10) * WINDOW_DAYS[rule.freq]!);
    const c: RuleCase = {
      ...base,
      rrule,
      after: new Date(after).toISOString(),
      before: new Date(before).toISOString(),
    };
    return c;
  });

describe('fast-forward', () => {
  describe('fastForwardStart', () => {
    it('lands on a Monday an even number of weeks after the week of DTSTART (WEEKLY;INTERVAL=2)', () => {
      const rule = pinDtstartDefaults(parseRule('FREQ=WEEKLY;INTERVAL=2'), Date.UTC(1970, 0, 1, 9));
      expect(fastForwardStart(rule, Date.UTC(1970, 0, 1, 9), Date.UTC(2026, 5, 10))).toBe(
        Date.UTC(2026, 5, 1),
      );
    });

    it('aligns weeks on WKST (WEEKLY;INTERVAL=3;WKST=SU starts periods on Sundays)', () => {
      const rule = pinDtstartDefaults(parseRule('FREQ=WEEKLY;INTERVAL=3;WKST=SU'), Date.UTC(1970, 0, 1, 9));
      expect(fastForwardStart(rule, Date.UTC(1970, 0, 1, 9), Date.UTC(2026, 5, 10))).toBe(
        Date.UTC(2026, 4, 24),
      );
    });

    it('lands on the first of a month on the INTERVAL grid (MONTHLY;INTERVAL=5)', () => {
      const rule = pinDtstartDefaults(parseRule('FREQ=MONTHLY;INTERVAL=5'), Date.UTC(1985, 1, 5, 7));
      expect(fastForwardStart(rule, Date.UTC(1985, 1, 5, 7), Date.UTC(2029, 0, 1))).toBe(
        Date.UTC(2028, 10, 1),
      );
    });

    it('does not move DTSTART when the rule has COUNT, or when the target is not later', () => {
      const counted = parseRule('FREQ=DAILY;COUNT=10');
      expect(fastForwardStart(counted, Date.UTC(1970, 0, 1), Date.UTC(2026, 0, 1))).toBe(
        Date.UTC(1970, 0, 1),
      );
      const daily = parseRule('FREQ=DAILY');
      expect(fastForwardStart(daily, Date.UTC(2026, 0, 1), Date.UTC(2025, 0, 1))).toBe(Date.UTC(2026, 0, 1));
    });

    it('yields the same wall times from the target on as walking from DTSTART (300 random rules)', () => {
      fc.assert(
        fc.property(ruleCase, fc.integer({ min: 0, max: 1000 }), (c, permille) => {
          const rule = parseRule(withoutEnd(c.rrule));
          const dtstart = parseWallClock(c.dtstart, 'dtstart');
          const target = dtstart + Math.floor((permille / 1000) * horizonDays(rule) * DAY_MS);
          const pinned = pinDtstartDefaults(rule, dtstart);
          const start = fastForwardStart(pinned, dtstart, target);
          expect(start).toBeLessThanOrEqual(Math.max(target, dtstart));
          expect(wallsFrom(pinned, start, target, 12)).toEqual(wallsFrom(rule, dtstart, target, 12));
        }),
        { seed: 909, numRuns: 300 },
      );
    });
  });

  describe('expandRrule with a window far from DTSTART', () => {
    it('equals the naive expansion from DTSTART for 200 random rules, zones, windows and exdates', () => {
      const cases = fc.sample(farWindowCase, { seed: 1970, numRuns: 200 });
      let nonEmptyFarAway = 0;
      for (const c of cases) {
        const result = expandRrule({
          rrule: c.rrule,
          dtstart: c.dtstart,
          timezone: c.timezone,
          count: c.count,
          exdates: c.exdates,
          after: c.after,
          before: c.before,
        });
        const naive = naiveExpansion(c);
        expect({
          case: c,
          starts: result.instances.map((i) => i.start),
          truncated: result.truncated,
        }).toEqual({ case: c, ...naive });
        if (naive.starts.length > 0 && Date.parse(c.after!) - Date.parse(`${c.dtstart}Z`) > 30 * DAY_MS)
          nonEmptyFarAway++;
      }
      // The property must not hold vacuously: most windows are far from DTSTART and hold instances.
      expect(nonEmptyFarAway).toBeGreaterThan(100);
    });

    it('finds the same June 2026 week for a daily rule started in 1970 as for one started in 2026', () => {
      const window = { after: '2026-06-01T00:00:00-05:00', before: '2026-06-07T23:59:59-05:00' };
      const far = expandRrule({
        rrule: 'FREQ=DAILY',
        dtstart: '1970-01-01T09:00:00',
        timezone: 'America/Chicago',
        ...window,
      });
      const near = expandRrule({
        rrule: 'FREQ=DAILY',
        dtstart: '2026-01-01T09:00:00',
        timezone: 'America/Chicago',
        ...window,
      });
      expect(far.instances.map((i) => i.start)).toEqual([
        '2026-06-01T14:00:00+00:00',
        '2026-06-02T14:00:00+00:00',
        '2026-06-03T14:00:00+00:00',
        '2026-06-04T14:00:00+00:00',
        '2026-06-05T14:00:00+00:00',
        '2026-06-06T14:00:00+00:00',
        '2026-06-07T14:00:00+00:00',
      ]);
      expect(far).toEqual(near);
    });
  });
});
