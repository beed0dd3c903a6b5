import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walkFixedStep } from '../../../../lambdas/core/time/recurrence/fixed-step.js';
import { pinDtstartDefaults, walkWithRrule } from '../../../../lambdas/core/time/recurrence/floating-walk.js';
import { parseRule, type RecurrenceRule } from '../../../../lambdas/core/time/recurrence/parse-rule.js';
import { WorkBudget } from '../../../../lambdas/core/work-budget.js';

const UNLIMITED = new WorkBudget('test', '', Number.POSITIVE_INFINITY);
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

function collect(
  walk: (
    rule: RecurrenceRule,
    dtstart: number,
    until: number | undefined,
    visit: (wall: number) => boolean,
  ) => unknown,
  rule: RecurrenceRule,
  dtstart: number,
  until: number | undefined,
  n: number,
) {
  const walls: string[] = [];
  walk(rule, dtstart, until, (wall) => walls.push(new Date(wall).toISOString()) < n);
  return walls;
}

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Rules with one date per period at a fixed place: the rules walkFixedStep takes over from rrule. */
const simpleRule = fc
  .record({
    freq: fc.constantFrom('WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY'),
    interval: fc.integer({ min: 1, max: 12 }),
    byday: maybe(fc.constantFrom(...WEEKDAYS)),
    byhour: maybe(fc.integer({ min: 0, max: 23 })),
    byminute: maybe(fc.integer({ min: 0, max: 59 })),
    bysecond: maybe(fc.integer({ min: 0, max: 59 })),
    wkst: fc.constantFrom(...WEEKDAYS),
    end: fc.constantFrom('none', 'count', 'until'),
    count: fc.integer({ min: 1, max: 30 }),
    untilHours: fc.integer({ min: 0, max: 24 * 400 }),
    dtstart: fc
      .integer({ min: Date.UTC(1990, 0, 1) / 1000, max: Date.UTC(2040, 0, 1) / 1000 })
      .map((s) => s * 1000),
  })
  .map((g) => {
    // Only the parts that keep one date per period at each frequency.
    const rank = ['WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY'].indexOf(g.freq);
    const parts = [`FREQ=${g.freq}`, `INTERVAL=${g.interval}`, `WKST=${g.wkst}`];
    if (g.byday && g.freq === 'WEEKLY') parts.push(`BYDAY=${g.byday}`);
    if (g.byhour !== undefined && rank <= 1) parts.push(`BYHOUR=${g.byhour}`);
    if (g.byminute !== undefined && rank <= 2) parts.push(`BYMINUTE=${g.byminute}`);
    if (g.bysecond !== undefined && rank <= 3) parts.push(`BYSECOND=${g.bysecond}`);
    if (g.end === 'count') parts.push(`COUNT=${g.count}`);
    const until = g.end === 'until' ? g.dtstart + g.untilHours * 3_600_000 : undefined;
    return { rrule: parts.join(';'), dtstart: g.dtstart, until };
  });

describe('fixed-step', () => {
  describe('walkFixedStep', () => {
    it('yields exactly what rrule yields, COUNT and UNTIL included (1000 random rules)', () => {
      let stepped = 0;
      for (const c of fc.sample(simpleRule, { seed: 1234, numRuns: 1000 })) {
        const rule = pinDtstartDefaults(parseRule(c.rrule), c.dtstart);
        const viaRrule = collect(
          (...args) => walkWithRrule(...args, UNLIMITED),
          rule,
          c.dtstart,
          c.until,
          40,
        );
        const viaSteps: string[] = [];
        const applies = walkFixedStep(
          rule,
          c.dtstart,
          c.until,
          (wall) => viaSteps.push(new Date(wall).toISOString()) < 40,
        );
        if (!applies) continue;
        stepped++;
        expect({ rule: c.rrule, dtstart: new Date(c.dtstart).toISOString(), walls: viaSteps }).toEqual({
          rule: c.rrule,
          dtstart: new Date(c.dtstart).toISOString(),
          walls: viaRrule,
        });
      }
      // Not vacuous: every generated rule takes the arithmetic path.
      expect(stepped).toBe(1000);
    });

    it('declines rules with several dates per period or calendar parts, visiting nothing', () => {
      const visited: number[] = [];
      for (const text of [
        'FREQ=DAILY;BYHOUR=9,17',
        'FREQ=WEEKLY;BYDAY=MO,FR',
        'FREQ=MONTHLY',
        'FREQ=DAILY;BYMONTH=1',
        'FREQ=HOURLY;BYHOUR=9',
      ]) {
        const rule = pinDtstartDefaults(parseRule(text), Date.UTC(2026, 0, 1, 9));
        expect(
          walkFixedStep(rule, Date.UTC(2026, 0, 1, 9), undefined, (w) => visited.push(w) > 0),
          text,
        ).toBe(false);
      }
      expect(visited).toEqual([]);
    });

    it("skips the first period's date when it falls before DTSTART", () => {
      const dtstart = Date.UTC(2026, 0, 7, 10); // a Wednesday, 10:00
      const rule = pinDtstartDefaults(parseRule('FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;COUNT=2'), dtstart);
      expect(collect((r, d, u, v) => walkFixedStep(r, d, u, v), rule, dtstart, undefined, 10)).toEqual([
        '2026-01-12T09:00:00.000Z',
        '2026-01-19T09:00:00.000Z',
      ]);
    });
  });
});
