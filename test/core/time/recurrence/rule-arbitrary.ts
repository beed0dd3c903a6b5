/**
 * fast-check generators of expand_rrule inputs. Every generated rule is satisfiable (it keeps
 * producing dates), so no expansion searches to year 9999 for a date that never comes, and the
 * frequencies below DAILY get short spans so a brute-force reference stays quick.
 */
import fc from 'fast-check';
import { formatWallClock } from '../../../../lambdas/core/time/recurrence/wall-clock-text.js';

export const ZONES = [
  'America/New_York',
  'America/Chicago',
  'Europe/London',
  'Europe/Berlin',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/Santiago',
  'America/St_Johns',
  'Pacific/Auckland',
  'Asia/Tehran',
  'Asia/Tokyo',
  'UTC',
] as const;

const DAY_MS = 86_400_000;
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** One expand_rrule call, in the tool's (snake_case) vocabulary. */
export interface RuleCase {
  rrule: string;
  dtstart: string;
  timezone: string;
  duration_minutes?: number;
  count?: number;
  exdates?: string[];
  after?: string;
  before?: string;
}

const list = (values: fc.Arbitrary<number>, max: number) =>
  fc.uniqueArray(values, { minLength: 1, maxLength: max }).map((xs) => xs.join(','));
const nonZero = (max: number) => fc.integer({ min: -max, max }).filter((n) => n !== 0);
const weekdays = (max: number) =>
  fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: max }).map((xs) => xs.join(','));
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

/** Joins NAME=value pairs, dropping absent ones. */
function rule(parts: Record<string, string | number | undefined>): string {
  return Object.entries(parts)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join(';');
}

const wkst = optional(fc.constantFrom(...WEEKDAYS));

const yearly = fc
  .oneof(
    fc.record({
      BYMONTH: optional(list(fc.integer({ min: 1, max: 12 }), 3)),
      BYMONTHDAY: optional(list(nonZero(28), 2)),
      WKST: wkst,
    }),
    fc.record({
      BYMONTH: optional(list(fc.integer({ min: 1, max: 12 }), 3)),
      BYDAY: fc.oneof(
        weekdays(2),
        fc.tuple(nonZero(4), fc.constantFrom(...WEEKDAYS)).map(([n, d]) => `${n}${d}`),
      ),
      BYSETPOS: optional(fc.constantFrom('1', '-1', '1,-1')),
    }),
    fc.record({
      BYYEARDAY: list(nonZero(365), 3),
      BYHOUR: optional(list(fc.integer({ min: 0, max: 23 }), 2)),
    }),
    fc.record({ BYWEEKNO: list(nonZero(52), 2), BYDAY: optional(weekdays(2)), WKST: wkst }),
  )
  .map((parts) => ({ FREQ: 'YEARLY', ...parts }));

const monthly = fc
  .oneof(
    fc.record({ BYMONTHDAY: list(nonZero(28), 3), BYSETPOS: optional(fc.constantFrom('1', '-1')) }),
    fc.record({
      BYDAY: fc.oneof(
        weekdays(3),
        fc.tuple(nonZero(4), fc.constantFrom(...WEEKDAYS)).map(([n, d]) => `${n}${d}`),
      ),
      BYSETPOS: optional(fc.constantFrom('1', '-1', '1,-1')),
      BYMONTH: optional(list(fc.integer({ min: 1, max: 12 }), 6).filter((m) => m.split(',').length >= 3)),
    }),
    fc.record({ BYHOUR: optional(list(fc.integer({ min: 0, max: 23 }), 2)) }),
  )
  .map((parts) => ({ FREQ: 'MONTHLY', ...parts }));

const weekly = fc
  .record({
    BYDAY: optional(weekdays(3)),
    BYSETPOS: optional(fc.constantFrom('1', '-1')),
    WKST: wkst,
    BYHOUR: optional(list(fc.integer({ min: 0, max: 23 }), 2)),
  })
  .map((parts) => ({ FREQ: 'WEEKLY', ...parts, BYSETPOS: parts.BYDAY ? parts.BYSETPOS : undefined }));

const daily = fc
  .record({
    BYHOUR: optional(list(fc.integer({ min: 0, max: 23 }), 3)),
    BYMINUTE: optional(list(fc.constantFrom(0, 15, 30, 45, 59), 2)),
    BYDAY: optional(weekdays(4)),
    BYMONTH: optional(list(fc.integer({ min: 1, max: 12 }), 8).filter((m) => m.split(',').length >= 4)),
    BYSETPOS: optional(fc.constantFrom('1', '-1')),
  })
  .map((parts) => {
    const other = parts.BYHOUR ?? parts.BYMINUTE ?? parts.BYDAY ?? parts.BYMONTH;
    return { FREQ: 'DAILY', ...parts, BYSETPOS: other ? parts.BYSETPOS : undefined };
  });

const subDaily = fc.oneof(
  fc.record({
    FREQ: fc.constant('HOURLY'),
    BYMINUTE: optional(list(fc.constantFrom(0, 10, 30, 45), 2)),
    BYDAY: optional(weekdays(4)),
  }),
  fc.record({
    FREQ: fc.constant('MINUTELY'),
    BYHOUR: optional(list(fc.integer({ min: 0, max: 23 }), 6).filter((h) => h.split(',').length >= 2)),
  }),
  fc.record({ FREQ: fc.constant('SECONDLY') }),
);

/** The rule text and how far apart its instances roughly are (to size windows). */
const ruleBody = fc.oneof(
  fc
    .tuple(yearly, fc.integer({ min: 1, max: 3 }))
    .map(([p, interval]) => ({ parts: { ...p, INTERVAL: interval }, spanDays: 400 * interval })),
  fc
    .tuple(monthly, fc.integer({ min: 1, max: 4 }))
    .map(([p, interval]) => ({ parts: { ...p, INTERVAL: interval }, spanDays: 40 * interval })),
  fc
    .tuple(weekly, fc.integer({ min: 1, max: 4 }))
    .map(([p, interval]) => ({ parts: { ...p, INTERVAL: interval }, spanDays: 10 * interval })),
  fc
    .tuple(daily, fc.integer({ min: 1, max: 5 }))
    .map(([p, interval]) => ({ parts: { ...p, INTERVAL: interval }, spanDays: 3 * interval })),
  fc.tuple(subDaily, fc.integer({ min: 1, max: 9 })).map(([p, n]) => {
    const interval = p.FREQ === 'HOURLY' ? n : p.FREQ === 'MINUTELY' ? n * 10 : n * 600;
    return { parts: { ...p, INTERVAL: interval }, spanDays: 1 };
  }),
);

// Times of day near DST changes are the interesting ones.
const timeOfDay = fc.oneof(
  fc.record({ hour: fc.integer({ min: 0, max: 3 }), minute: fc.constantFrom(0, 15, 30, 45, 59) }),
  fc.record({ hour: fc.integer({ min: 0, max: 23 }), minute: fc.constantFrom(0, 30) }),
);

function utcText(ms: number): string {
  return `${formatWallClock(ms)}+00:00`;
}

function untilText(ms: number): string {
  return `${formatWallClock(ms).replace(/[-:]/g, '')}Z`;
}

/**
 * Whether stepping INTERVAL minutes from DTSTART's time of day ever lands in one of the BYHOUR
 * hours. For INTERVAL=80 or 90 the minutes reached repeat every 80 or 90 minutes, so whole hours
 * can be skipped for ever: FREQ=MINUTELY;INTERVAL=90;BYHOUR=0,18 from 01:15 reaches 01:15,
 * 02:45, … 23:45 and never 00:xx or 18:xx. Such a rule has no instance (expandRrule refuses it),
 * and a walk looking for one steps to year 9999 (found as a hang with a random seed).
 */
function minutelyHoursReachable(
  parts: { FREQ: string; BYHOUR?: string; INTERVAL: number },
  minuteOfDay: number,
) {
  if (parts.FREQ !== 'MINUTELY' || parts.BYHOUR === undefined) return true;
  const hours = new Set(parts.BYHOUR.split(',').map(Number));
  // The minutes of the day reached repeat within 1440 steps.
  for (let step = 0, minute = minuteOfDay; step < 1440; step++, minute = (minute + parts.INTERVAL) % 1440) {
    if (hours.has(Math.floor(minute / 60))) return true;
  }
  return false;
}

/** One expand_rrule call: a satisfiable rule, a start, a zone and, at random, bounds, a window, exdates. */
export const ruleCase: fc.Arbitrary<RuleCase> = fc
  .record({
    body: ruleBody,
    zone: fc.constantFrom(...ZONES),
    day: fc.integer({ min: Date.UTC(1995, 0, 1) / DAY_MS, max: Date.UTC(2030, 0, 1) / DAY_MS }),
    time: timeOfDay,
    end: fc.constantFrom('none', 'count', 'until'),
    ruleCount: fc.integer({ min: 1, max: 40 }),
    untilSpans: fc.double({ min: 0.2, max: 30, noNaN: true }),
    window: fc.constantFrom('none', 'after', 'both'),
    afterSpans: fc.double({ min: 0, max: 40, noNaN: true }),
    windowSpans: fc.double({ min: 0.1, max: 20, noNaN: true }),
    count: optional(fc.integer({ min: 1, max: 120 })),
    exdateSteps: fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 3 }),
    duration: optional(fc.constantFrom(0, 30, 90)),
  })
  .filter((g) => minutelyHoursReachable(g.body.parts, g.time.hour * 60 + g.time.minute))
  .map((g) => {
    const dtstart = g.day * DAY_MS + (g.time.hour * 60 + g.time.minute) * 60_000;
    const span = g.body.spanDays * DAY_MS;
    const parts = {
      ...g.body.parts,
      COUNT: g.end === 'count' ? g.ruleCount : undefined,
      UNTIL:
        g.end === 'until' ? untilText(dtstart + Math.floor((g.untilSpans * span) / 1000) * 1000) : undefined,
    };
    const c: RuleCase = { rrule: rule(parts), dtstart: formatWallClock(dtstart), timezone: g.zone };
    if (g.window !== 'none') {
      const after = dtstart + Math.floor((g.afterSpans * span) / 60_000) * 60_000;
      c.after = utcText(after);
      if (g.window === 'both')
        c.before = utcText(after + Math.floor((g.windowSpans * span) / 60_000) * 60_000);
    }
    if (g.count !== undefined) c.count = g.count;
    if (g.duration !== undefined) c.duration_minutes = g.duration;
    if (g.exdateSteps.length > 0) {
      // Steps of the rule's typical spacing from DTSTART: some hit real instances, some miss.
      const step = g.body.spanDays >= 3 ? DAY_MS : 3_600_000;
      c.exdates = g.exdateSteps.map((k) => formatWallClock(dtstart + k * step));
    }
    return c;
  });
