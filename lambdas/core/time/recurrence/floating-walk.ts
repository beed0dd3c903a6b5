import type { Options } from 'rrule';
import * as rruleModule from 'rrule';
import { DomainError } from '../../errors.js';
import type { WorkBudget } from '../../work-budget.js';
import { walkFixedStep } from './fixed-step.js';
import { FREQUENCIES, type RecurrenceRule } from './parse-rule.js';
import type { WallMs } from './wall-clock-text.js';

// rrule ships CommonJS without an "exports" map, so Node's ESM loader exposes only its default
// export; destructuring it works under Node, tsx and vitest alike.
// rrule ships a UMD build as `main` (Node's ESM loader sees only a default export) and a real ESM
// build as `module` (what esbuild bundles, with named exports and no default). Accept both shapes.
const rrulePackage = ((rruleModule as unknown as { default?: typeof rruleModule }).default ??
  rruleModule) as typeof rruleModule;
const { RRule, Weekday } = rrulePackage;

const HOURLY = FREQUENCIES.indexOf('HOURLY');
const MINUTELY = FREQUENCIES.indexOf('MINUTELY');
const SECONDLY = FREQUENCIES.indexOf('SECONDLY');

/**
 * The same rule with every part that RFC 5545 (and rrule, mirroring dateutil) derives from
 * DTSTART written out: the month/day for YEARLY, the day for MONTHLY, the weekday for WEEKLY,
 * and the hour/minute/second below the frequency. Once pinned, the rule no longer depends on
 * DTSTART's fields, so DTSTART can be moved (see fast-forward.ts) without changing its dates.
 *
 * @example
 * pinDtstartDefaults(parseRule('FREQ=MONTHLY'), Date.UTC(2026, 0, 31, 9)).bymonthday; // [31]
 */
export function pinDtstartDefaults(rule: RecurrenceRule, dtstart: WallMs): RecurrenceRule {
  const start = new Date(dtstart);
  const pinned: RecurrenceRule = { ...rule };
  if (!(rule.byweekno || rule.byyearday || rule.bymonthday || rule.byday)) {
    const freq = FREQUENCIES[rule.freq];
    if (freq === 'YEARLY') {
      pinned.bymonth ??= [start.getUTCMonth() + 1];
      pinned.bymonthday = [start.getUTCDate()];
    } else if (freq === 'MONTHLY') {
      pinned.bymonthday = [start.getUTCDate()];
    } else if (freq === 'WEEKLY') {
      pinned.byday = [{ weekday: (start.getUTCDay() + 6) % 7 }];
    }
  }
  if (rule.freq < HOURLY) pinned.byhour ??= [start.getUTCHours()];
  if (rule.freq < MINUTELY) pinned.byminute ??= [start.getUTCMinutes()];
  if (rule.freq < SECONDLY) pinned.bysecond ??= [start.getUTCSeconds()];
  return pinned;
}

function floatingRRule(rule: RecurrenceRule, dtstart: WallMs, until: WallMs | undefined) {
  const options: Partial<Options> = {
    freq: rule.freq,
    interval: rule.interval,
    wkst: rule.wkst,
    dtstart: new Date(dtstart),
    until: until === undefined ? null : new Date(until),
    count: rule.count ?? null,
    bysetpos: rule.bysetpos ?? null,
    bymonth: rule.bymonth ?? null,
    bymonthday: rule.bymonthday ?? null,
    byyearday: rule.byyearday ?? null,
    byweekno: rule.byweekno ?? null,
    byweekday: rule.byday?.map((day) => new Weekday(day.weekday, day.nth)) ?? null,
    byhour: rule.byhour ?? null,
    byminute: rule.byminute ?? null,
    bysecond: rule.bysecond ?? null,
  };
  // noCache: each RRule is walked once; rrule's cache would only copy every date again.
  return new RRule(options, true);
}

/**
 * Work steps per `options.interval` read (half a period), by FREQ (YEARLY … SECONDLY), measured
 * with rrule 2.8 so that one step costs about 4 µs whatever the frequency: a YEARLY period
 * rebuilds the year's masks (~50 µs a read), a MONTHLY one its month's (~20 µs), a WEEKLY one
 * almost nothing (~4 µs), and a sub-daily one also runs our BYHOUR/BYMINUTE filter.
 */
const STEPS_PER_READ = [12, 5, 1, 2, 3, 3, 3];
const YEARLY_STEPS_PER_READ = STEPS_PER_READ[0]!;

/**
 * An rrule that calls `onStep` twice for each period it examines. rrule has no hook into its period
 * loop, and that loop can run silently for millennia: it checks UNTIL only when a date is found,
 * so a rule whose days rarely or never meet scans to year 9999 (12 s for
 * FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO). The loop reads `options.interval` twice per
 * period (rrule 2.8 iter/index.js: the `interval === 0` test and DateTime.add), so a getter on it
 * meters the loop, and a throw from `onStep` stops it. test/core/time/recurrence/work-budget.test.ts
 * fails if an rrule upgrade stops reading it.
 */
function meteredRRule(rule: RecurrenceRule, dtstart: WallMs, until: WallMs | undefined, onStep: () => void) {
  const rrule = floatingRRule(rule, dtstart, until);
  const { interval } = rrule.options;
  Object.defineProperty(rrule.options, 'interval', {
    get: () => {
      onStep();
      return interval;
    },
  });
  return rrule;
}

/**
 * Walks the wall-clock dates of `rule` from `dtstart` (wall ms) in order, up to `until` (wall
 * ms, inclusive) if given, calling `visit` with each until it returns false. Expansion happens
 * in floating space, without rrule's `tzid`: zone conversion is the caller's, once per date, far
 * cheaper than rrule's two `toLocaleString` round trips per date. Rules with one date per
 * period at a fixed place (FREQ=DAILY, FREQ=WEEKLY;BYDAY=TU, …) are stepped by arithmetic
 * (fixed-step.ts); all others go through rrule ({@link walkWithRrule}).
 *
 * @example
 * const starts: number[] = [];
 * walkWallClock(parseRule('FREQ=DAILY;COUNT=2'), Date.UTC(2026, 0, 1, 9), undefined, (w) => starts.push(w) > 0, budget);
 * // starts: [Date.UTC(2026, 0, 1, 9), Date.UTC(2026, 0, 2, 9)]
 */
export function walkWallClock(
  rule: RecurrenceRule,
  dtstart: WallMs,
  until: WallMs | undefined,
  visit: (wall: WallMs) => boolean,
  budget: WorkBudget,
): void {
  const metered = (wall: WallMs) => {
    budget.spend();
    return visit(wall);
  };
  if (!walkFixedStep(rule, dtstart, until, metered)) walkWithRrule(rule, dtstart, until, metered, budget);
}

/**
 * {@link walkWallClock} through rrule, for any rule. Two rrule 2.8 defects are worked around
 * here so that results match RFC 5545 and dateutil (a third, BYSETPOS depending on list order,
 * is avoided by parseRule sorting every list):
 * - BYHOUR with FREQ=MINUTELY/SECONDLY (and BYMINUTE with SECONDLY): when an hour is excluded
 *   rrule jumps whole hours and leaves the INTERVAL grid (jkbrzt/rrule#373, #400, #600). Those
 *   parts are filtered here instead, which is exact because they only ever drop whole periods.
 * - BYSETPOS can yield one date twice (e.g. BYSETPOS=1,-1 on a one-date set): repeats are
 *   skipped here.
 * COUNT is therefore counted here, over the dates that survive both.
 *
 * @example
 * walkWithRrule(parseRule('FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;COUNT=1'), Date.UTC(2026, 0, 1), undefined, (w) => true, budget);
 */
export function walkWithRrule(
  rule: RecurrenceRule,
  dtstart: WallMs,
  until: WallMs | undefined,
  visit: (wall: WallMs) => boolean,
  budget: WorkBudget,
): void {
  const hours = rule.freq >= MINUTELY ? rule.byhour : undefined;
  const minutes = rule.freq >= SECONDLY ? rule.byminute : undefined;
  const loose: RecurrenceRule = { ...rule, count: undefined };
  if (hours) loose.byhour = undefined;
  if (minutes) loose.byminute = undefined;
  let remaining = rule.count ?? Number.POSITIVE_INFINITY;
  let previous = Number.NaN;
  const steps = STEPS_PER_READ[loose.freq]!;
  meteredRRule(loose, dtstart, until, () => budget.spend(steps)).all((date) => {
    const wall = date.getTime();
    if (wall === previous) return true;
    previous = wall;
    if (hours && !hours.includes(date.getUTCHours())) return true;
    if (minutes && !minutes.includes(date.getUTCMinutes())) return true;
    return visit(wall) && --remaining > 0;
  });
}

/**
 * The Gregorian calendar repeats every 400 years (146,097 days, a whole number of weeks), so a
 * day pattern that matches no day in 400 consecutive years matches none ever.
 */
const GREGORIAN_CYCLE_YEARS = 400;

/**
 * Refuses a rule whose day parts can never meet, such as "BYMONTH=1;BYYEARDAY=200" or
 * "FREQ=MONTHLY;BYDAY=1FR;BYMONTHDAY=13": rrule would search every period up to year 9999
 * for a first date (~12 s for an HOURLY rule). The check asks rrule for any day matching the
 * same day parts, yearly from DTSTART's year, which costs one period when the rule is sound
 * and one Gregorian cycle (400 yearly periods, about 10,000 steps of `budget`) when it is not. Run only
 * when two day parts (or a BYDAY ordinal) could clash.
 *
 * @example
 * assertDaysCanOccur(parseRule('FREQ=DAILY;BYMONTH=1;BYYEARDAY=200'), Date.UTC(2026, 0, 1), budget); // throws INVALID_RRULE
 */
export function assertDaysCanOccur(rule: RecurrenceRule, dtstart: WallMs, budget: WorkBudget): void {
  const dayParts = [rule.bymonth, rule.byweekno, rule.byyearday, rule.bymonthday, rule.byday].filter(
    Boolean,
  ).length;
  const ordinals = rule.byday?.some((day) => day.nth !== undefined) ?? false;
  if (dayParts < 2 && !ordinals) return;
  // YEARLY filters days as every frequency does; only a MONTHLY rule's "2TU" means "in each
  // month", which YEARLY reads that way when given every month.
  const everyMonth = FREQUENCIES[rule.freq] === 'MONTHLY' && ordinals && !rule.bymonth;
  const probe: RecurrenceRule = {
    freq: FREQUENCIES.indexOf('YEARLY'),
    interval: 1,
    wkst: rule.wkst,
    bymonth: everyMonth ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] : rule.bymonth,
    byweekno: rule.byweekno,
    byyearday: rule.byyearday,
    bymonthday: rule.bymonthday,
    byday: rule.byday,
    byhour: [0],
    byminute: [0],
    bysecond: [0],
  };
  let occurs = false;
  const startOfYear = Date.UTC(new Date(dtstart).getUTCFullYear(), 0, 1);
  // Two interval reads per period (see meteredRRule); one more for rrule's setup.
  let reads = 0;
  const lastRead = 2 * GREGORIAN_CYCLE_YEARS + 1;
  const cycleSearched = new Error('searched one Gregorian cycle');
  try {
    meteredRRule(probe, startOfYear, undefined, () => {
      budget.spend(YEARLY_STEPS_PER_READ);
      if (++reads > lastRead) throw cycleSearched;
    }).all(() => {
      occurs = true;
      return false;
    });
  } catch (error) {
    if (error !== cycleSearched) throw error;
  }
  if (!occurs) {
    throw new DomainError(
      'INVALID_RRULE',
      'The rule never occurs: no day satisfies all of its BYMONTH/BYWEEKNO/BYYEARDAY/BYMONTHDAY/BYDAY parts together. Drop or change one of them.',
      { part: 'BYDAY' },
    );
  }
}
