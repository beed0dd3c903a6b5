/**
 * A long property run of the Outlook recurrence mapping (lambdas/adapters/outlook), too slow for
 * the suite. Needs python3 with python-dateutil (the suite's reference).
 *
 *   npx tsx scripts/outlook-recurrence-property.ts [runs]
 *
 * A. Random RRULEs (the expand_rrule generator) go RRULE → Graph → RRULE; every converted rule
 *    must give the instances of the original (dateutil), every other one a refusal naming a part.
 * B. Random Graph payloads go Graph → RRULE; the RRULE's instances (dateutil) must fall on the
 *    dates a brute-force reading of Microsoft's pattern rules gives (below, independent of the
 *    mapping), and RRULE → Graph must give the payload back.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import {
  firstOccurrenceStart,
  fromGraphRecurrence,
  GRAPH_WEEK_INDEXES,
  GRAPH_WEEKDAYS,
  type GraphPatternedRecurrence,
  type GraphRecurrencePattern,
  type SeriesClock,
  toGraphRecurrence,
} from '../lambdas/adapters/outlook/graph-recurrence.js';
import { parseRecurrence } from '../lambdas/core/calendar/recurrence-lines.js';
import { isDomainError } from '../lambdas/core/errors.js';
import { type ReferenceCase, runPythonReference } from '../test/core/time/recurrence/python-reference.js';
import { ruleCase, ZONES } from '../test/core/time/recurrence/rule-arbitrary.js';

const runs = Number(process.argv[2] ?? 2000);

function clockOf(dtstart: string, zone: string): SeriesClock {
  const start = DateTime.fromISO(dtstart, { zone });
  return { start: { date_time: start.toISO({ suppressMilliseconds: true })!, time_zone: zone }, zone };
}

const localDates = (result: unknown) =>
  result && typeof result === 'object' && 'instances' in result
    ? (result as { instances: { local_start: string }[] }).instances.map((i) => i.local_start.slice(0, 10))
    : [`refused: ${JSON.stringify(result)}`];

function partA(): void {
  const cases = fc.sample(ruleCase, { seed: 5545, numRuns: runs }).map((c, i) => ({ ...c, id: `a-${i}` }));
  const refused = new Map<string, number>();
  const converted: ReferenceCase[] = [];
  for (const c of cases) {
    const clock = clockOf(c.dtstart, c.timezone);
    // Only rules whose DTSTART a domain start can carry (not a wall time skipped by DST).
    if (
      DateTime.fromISO((clock.start as { date_time: string }).date_time, { setZone: true }).toFormat(
        "yyyy-MM-dd'T'HH:mm:ss",
      ) !== DateTime.fromISO(c.dtstart).toFormat("yyyy-MM-dd'T'HH:mm:ss")
    )
      continue;
    try {
      const write = toGraphRecurrence([`RRULE:${c.rrule}`], clock);
      const back = parseRecurrence(fromGraphRecurrence(write.recurrence, clock), c.timezone);
      converted.push({ ...c, id: `${c.id}/graph`, rrule: back.rrule });
    } catch (error) {
      if (!isDomainError(error, 'INVALID_RRULE')) throw error;
      const part = String(error.details.part ?? 'parse');
      refused.set(part, (refused.get(part) ?? 0) + 1);
    }
  }
  const reference = runPythonReference({ expand: [...cases, ...converted] });
  const mismatches = converted.filter((c) => {
    const original = reference.expand[c.id.replace('/graph', '')];
    return JSON.stringify(original) !== JSON.stringify(reference.expand[c.id]);
  });
  console.log(
    `A: ${cases.length} random RRULEs: converted ${converted.length}, refused ${[...refused.values()].reduce((a, b) => a + b, 0)} ${JSON.stringify(Object.fromEntries([...refused].sort((x, y) => y[1] - x[1])))}, mismatches ${mismatches.length}`,
  );
  for (const m of mismatches.slice(0, 5)) console.log('  mismatch', m.id, m.rrule);
}

const graphPattern: fc.Arbitrary<GraphRecurrencePattern> = fc.oneof(
  fc.record({ type: fc.constant('daily' as const), interval: fc.integer({ min: 1, max: 5 }) }),
  fc.record({
    type: fc.constant('weekly' as const),
    interval: fc.integer({ min: 1, max: 4 }),
    daysOfWeek: fc.uniqueArray(fc.constantFrom(...GRAPH_WEEKDAYS), { minLength: 1, maxLength: 4 }),
    firstDayOfWeek: fc.constantFrom(...GRAPH_WEEKDAYS),
  }),
  fc.record({
    type: fc.constant('absoluteMonthly' as const),
    interval: fc.integer({ min: 1, max: 4 }),
    dayOfMonth: fc.integer({ min: 1, max: 31 }),
  }),
  fc.record({
    type: fc.constant('relativeMonthly' as const),
    interval: fc.integer({ min: 1, max: 4 }),
    daysOfWeek: fc.uniqueArray(fc.constantFrom(...GRAPH_WEEKDAYS), { minLength: 1, maxLength: 3 }),
    index: fc.constantFrom(...GRAPH_WEEK_INDEXES),
  }),
  fc
    .record({
      type: fc.constant('absoluteYearly' as const),
      interval: fc.integer({ min: 1, max: 3 }),
      month: fc.integer({ min: 1, max: 12 }),
      dayOfMonth: fc.integer({ min: 1, max: 31 }),
    })
    .filter((p) => p.dayOfMonth <= [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][p.month - 1]!),
  fc.record({
    type: fc.constant('relativeYearly' as const),
    interval: fc.integer({ min: 1, max: 3 }),
    month: fc.integer({ min: 1, max: 12 }),
    daysOfWeek: fc.uniqueArray(fc.constantFrom(...GRAPH_WEEKDAYS), { minLength: 1, maxLength: 3 }),
    index: fc.constantFrom(...GRAPH_WEEK_INDEXES),
  }),
);

const graphCase = fc.record({
  pattern: graphPattern,
  start: fc.date({
    min: new Date('2020-01-01T00:00:00Z'),
    max: new Date('2030-12-31T00:00:00Z'),
    noInvalidDate: true,
  }),
  minutes: fc.integer({ min: 0, max: 95 }).map((q) => q * 15),
  zone: fc.constantFrom(...ZONES),
  range: fc.oneof(
    fc.record({ type: fc.constant('numbered' as const), n: fc.integer({ min: 1, max: 25 }) }),
    fc.record({ type: fc.constant('endDate' as const), n: fc.integer({ min: 0, max: 1500 }) }),
  ),
});

const dayIndex = (d: DateTime) => Math.round(d.toMillis() / 86_400_000);

/** Does `d` (a UTC-midnight date) fit the pattern's day rule, interval aside (Microsoft's reading)? */
function fits(p: GraphRecurrencePattern, d: DateTime): boolean {
  const weekdayName = GRAPH_WEEKDAYS[d.weekday % 7]!;
  const inMonth = (month: number) => p.month === undefined || month === p.month;
  switch (p.type) {
    case 'daily':
      return true;
    case 'weekly':
      return p.daysOfWeek!.includes(weekdayName);
    case 'absoluteMonthly':
    case 'absoluteYearly':
      return inMonth(d.month) && d.day === Math.min(p.dayOfMonth!, d.daysInMonth!);
    case 'relativeMonthly':
    case 'relativeYearly': {
      if (!inMonth(d.month)) return false;
      const allowed = Array.from({ length: d.daysInMonth! }, (_, i) => d.set({ day: i + 1 })).filter((x) =>
        p.daysOfWeek!.includes(GRAPH_WEEKDAYS[x.weekday % 7]!),
      );
      const pick = p.index === 'last' ? allowed.at(-1) : allowed[GRAPH_WEEK_INDEXES.indexOf(p.index!)];
      return pick?.day === d.day;
    }
  }
}

/** The period (day, week, month or year) `d` lies in, counted so consecutive periods differ by 1. */
function period(p: GraphRecurrencePattern, d: DateTime): number {
  if (p.type === 'daily') return dayIndex(d);
  if (p.type === 'weekly') {
    const first = GRAPH_WEEKDAYS.indexOf(p.firstDayOfWeek ?? 'sunday');
    return Math.floor((dayIndex(d) - ((first + 3) % 7)) / 7); // day 0 (1970-01-01) was a Thursday
  }
  if (p.type.endsWith('Monthly')) return d.year * 12 + d.month;
  return d.year;
}

/** Occurrence dates by brute force: fitting days, every interval-th period from the first one. */
function graphDates(p: GraphPatternedRecurrence, limit: number): string[] {
  const dates: string[] = [];
  let first: number | undefined;
  const end = p.range.type === 'endDate' ? p.range.endDate! : '9999-12-31';
  for (
    let d = DateTime.fromISO(p.range.startDate, { zone: 'utc' });
    dates.length < limit;
    d = d.plus({ days: 1 })
  ) {
    const date = d.toISODate()!;
    if (date > end || d.year > 2200) break;
    if (!fits(p.pattern, d)) continue;
    first ??= period(p.pattern, d);
    if ((period(p.pattern, d) - first) % p.pattern.interval === 0) dates.push(date);
  }
  return dates;
}

function partB(): void {
  const samples = fc.sample(graphCase, { seed: 365, numRuns: runs });
  const cases: {
    id: string;
    expected: string[];
    reference: ReferenceCase;
    recurrence: GraphPatternedRecurrence;
    clock: SeriesClock;
    lines: string[];
  }[] = [];
  let notBack = 0;
  for (const [i, s] of samples.entries()) {
    const startDate = s.start.toISOString().slice(0, 10);
    const wall = `${startDate}T${String(Math.floor(s.minutes / 60)).padStart(2, '0')}:${String(s.minutes % 60).padStart(2, '0')}:00`;
    const endDate = DateTime.fromISO(startDate).plus({ days: s.range.n }).toISODate()!;
    const recurrence: GraphPatternedRecurrence = {
      pattern: s.pattern,
      range:
        s.range.type === 'numbered'
          ? { type: 'numbered', startDate, numberOfOccurrences: s.range.n }
          : { type: 'endDate', startDate, endDate },
    };
    const limit = s.range.type === 'numbered' ? s.range.n : 40;
    const expected = graphDates(recurrence, limit);
    if (expected.length === 0) continue;
    let clock = clockOf(wall, s.zone);
    if (
      DateTime.fromISO((clock.start as { date_time: string }).date_time, { setZone: true }).toFormat(
        "yyyy-MM-dd'T'HH:mm:ss",
      ) !== wall
    )
      continue; // a skipped wall time
    clock = { ...clock, start: firstOccurrenceStart(recurrence, clock) };
    const lines = fromGraphRecurrence(recurrence, clock);
    const rrule = parseRecurrence(lines, s.zone).rrule;
    const dtstart = DateTime.fromISO((clock.start as { date_time: string }).date_time, {
      setZone: true,
    }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
    cases.push({
      id: `b-${i}`,
      expected,
      recurrence,
      clock,
      lines,
      reference: { id: `b-${i}`, rrule, dtstart, timezone: s.zone, count: limit },
    });
    // Back to Graph: the same pattern (fields of its type) and the same instances' range.
    const again = toGraphRecurrence(lines, clock).recurrence;
    if (JSON.stringify(fromGraphRecurrence(again, clock)) !== JSON.stringify(lines)) notBack++;
  }
  const reference = runPythonReference({ expand: cases.map((c) => c.reference) });
  const mismatches = cases.filter(
    (c) =>
      JSON.stringify(localDates(reference.expand[c.id]).slice(0, c.expected.length)) !==
        JSON.stringify(c.expected) || localDates(reference.expand[c.id]).length !== c.expected.length,
  );
  const byType = new Map<string, number>();
  for (const c of cases)
    byType.set(c.recurrence.pattern.type, (byType.get(c.recurrence.pattern.type) ?? 0) + 1);
  console.log(
    `B: ${cases.length} random Graph payloads ${JSON.stringify(Object.fromEntries(byType))}: instance mismatches ${mismatches.length}, not converted back to the same rule ${notBack}`,
  );
  for (const m of mismatches.slice(0, 5)) {
    console.log(
      '  mismatch',
      JSON.stringify(m.recurrence),
      m.lines,
      'expected',
      m.expected.slice(0, 6),
      'got',
      localDates(reference.expand[m.id]).slice(0, 6),
    );
  }
}

const started = performance.now();
partA();
partB();
console.log(`ran in ${((performance.now() - started) / 1000).toFixed(1)} s`);
