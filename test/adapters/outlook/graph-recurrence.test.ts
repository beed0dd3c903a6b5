import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  firstOccurrenceStart,
  fromGraphRecurrence,
  type GraphPatternedRecurrence,
  occurrenceDate,
  type SeriesClock,
  toGraphRecurrence,
} from '../../../lambdas/adapters/outlook/graph-recurrence.js';
import { formatRecurrence, parseRecurrence } from '../../../lambdas/core/calendar/recurrence-lines.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import {
  type ReferenceCase,
  type ReferenceResult,
  runPythonReference,
} from '../../core/time/recurrence/python-reference.js';
import { needs, PYTHON_DATEUTIL } from '../../support/system-parts.js';

const withDateutil = needs(PYTHON_DATEUTIL);

const corpus = JSON.parse(
  readFileSync(new URL('../../fixtures/rrule-corpus.json', import.meta.url), 'utf8'),
) as ReferenceCase[];

/** A series clock for a wall-clock DTSTART in `zone`, as the domain writes a timed start. */
function clockOf(dtstart: string, zone: string): SeriesClock {
  const start = DateTime.fromISO(dtstart, { zone });
  return { start: { date_time: start.toISO({ suppressMilliseconds: true })!, time_zone: zone }, zone };
}

type Outcome = { converted: ReferenceCase } | { refused: { part: string; reason: string } };

/** RRULE (+ EXDATE) → Graph → RRULE (+ EXDATE), as the case the reference expands again. */
function roundTrip(c: ReferenceCase, id = `${c.id}/graph`): Outcome {
  const clock = clockOf(c.dtstart, c.timezone);
  const rrule = c.rrule.replace(/^rrule:/i, '');
  const exdates = (c.exdates ?? []).map((e) => DateTime.fromISO(e).toFormat("yyyy-MM-dd'T'HH:mm:ss"));
  const lines = formatRecurrence({ rrule, exdates, other: [] }, c.timezone, false);
  try {
    const write = toGraphRecurrence(lines, clock);
    // What Graph sends back is JSON: the pattern goes through it as it would over the wire.
    const fromWire = JSON.parse(JSON.stringify(write.recurrence)) as GraphPatternedRecurrence;
    const back = parseRecurrence(fromGraphRecurrence(fromWire, clock, write.cancelledDates), c.timezone);
    return { converted: { ...c, id, rrule: back.rrule, exdates: back.exdates } };
  } catch (error) {
    if (isDomainError(error, 'INVALID_RRULE') && typeof error.details.part === 'string') {
      return { refused: { part: error.details.part, reason: String(error.details.reason) } };
    }
    throw error;
  }
}

function startsOf(result: ReferenceResult | undefined): string[] | string {
  if (!result) return 'missing';
  return 'refused' in result ? `refused: ${result.refused}` : result.instances.map((i) => i.local_start);
}

describe('graph-recurrence against python-dateutil', withDateutil, () => {
  it('converts every corpus rule Graph can express to a pattern and back to the same instances, and refuses the rest naming the part', () => {
    const outcomes = corpus.map((c) => ({ c, outcome: roundTrip(c) }));
    const converted = outcomes.flatMap(({ outcome }) => ('converted' in outcome ? [outcome.converted] : []));
    const reference = runPythonReference({ expand: [...corpus, ...converted] });
    const mismatches = outcomes
      .filter(({ outcome }) => 'converted' in outcome)
      .map(({ c }) => ({
        id: c.id,
        original: startsOf(reference.expand[c.id]),
        converted: startsOf(reference.expand[`${c.id}/graph`]),
      }))
      .filter((m) => JSON.stringify(m.original) !== JSON.stringify(m.converted));
    expect(mismatches).toEqual([]);
    const refusedBy: Record<string, string[]> = {};
    for (const { c, outcome } of outcomes) {
      if ('refused' in outcome)
        refusedBy[outcome.refused.part] = [...(refusedBy[outcome.refused.part] ?? []), c.id];
    }
    console.info(
      `recurrence corpus: ${corpus.length} rules, converted ${converted.length}, refused ${corpus.length - converted.length}: ${JSON.stringify(Object.fromEntries(Object.entries(refusedBy).map(([part, ids]) => [part, ids.length])))}`,
    );
    // Every converted rule had instances to compare (a rule with none would prove nothing).
    for (const c of converted) expect(startsOf(reference.expand[c.id]).length).toBeGreaterThan(0);
    expect(converted.length).toBeGreaterThanOrEqual(15);
  });

  it('converts rules of every pattern type and range both ways to the same instances', () => {
    const rules: [string, string, string][] = [
      ['FREQ=DAILY;INTERVAL=3;COUNT=6', '2026-03-06T08:00:00', 'America/New_York'],
      ['FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;COUNT=12', '2026-03-27T09:30:00', 'Europe/London'],
      [
        'FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,SA;WKST=SU;UNTIL=20261101T000000Z',
        '2026-08-04T07:00:00',
        'America/Los_Angeles',
      ],
      ['FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;COUNT=14', '2026-01-31T18:00:00', 'Australia/Sydney'],
      ['FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=6', '2026-01-31T18:00:00', 'Asia/Tokyo'],
      ['FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=28,29,30;BYSETPOS=-1;COUNT=8', '2026-01-30T12:00:00', 'UTC'],
      ['FREQ=MONTHLY;BYDAY=SA,SU;BYSETPOS=2;COUNT=10', '2026-01-04T10:00:00', 'Europe/Berlin'],
      ['FREQ=MONTHLY;BYDAY=4TH;UNTIL=20271130T170000Z', '2026-11-26T12:00:00', 'America/New_York'],
      ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1;COUNT=9', '2024-02-29T12:00:00', 'America/Denver'],
      ['FREQ=YEARLY;INTERVAL=2;BYMONTH=7;BYMONTHDAY=31;COUNT=4', '2026-07-31T09:00:00', 'Europe/Paris'],
      [
        'FREQ=YEARLY;BYMONTH=10;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=5',
        '2026-10-30T16:00:00',
        'Asia/Kolkata',
      ],
      ['FREQ=YEARLY;COUNT=5', '2026-03-29T01:30:00', 'Europe/London'],
      // UNTIL falls on a day before that day's occurrence (08:00 EDT < 09:00): that day is not in the range.
      ['FREQ=DAILY;UNTIL=20260310T120000Z', '2026-03-05T09:00:00', 'America/New_York'],
    ];
    const cases = rules.map(
      ([rrule, dtstart, timezone], i): ReferenceCase => ({
        id: `typed-${i}`,
        rrule,
        dtstart,
        timezone,
        count: 40,
      }),
    );
    const outcomes = cases.map((c) => roundTrip(c));
    expect(outcomes.filter((o) => 'refused' in o)).toEqual([]);
    const converted = outcomes.flatMap((o) => ('converted' in o ? [o.converted] : []));
    const reference = runPythonReference({ expand: [...cases, ...converted] });
    for (const c of cases) {
      const original = startsOf(reference.expand[c.id]);
      expect(original.length).toBeGreaterThan(3);
      expect({ id: c.id, starts: startsOf(reference.expand[`${c.id}/graph`]) }).toEqual({
        id: c.id,
        starts: original,
      });
    }
  });

  /** Graph payloads from Microsoft's "Schedule repeating appointments as recurring events" page. */
  const graphExamples: {
    name: string;
    recurrence: GraphPatternedRecurrence;
    start: string;
    zone: string;
    expected: string[];
  }[] = [
    {
      name: 'every Monday from 4 September 2017 until the end of the year (last one: Monday 25 December)',
      recurrence: {
        pattern: { type: 'weekly', interval: 1, daysOfWeek: ['Monday' as 'monday'] },
        range: { type: 'endDate', startDate: '2017-09-04', endDate: '2017-12-31' },
      },
      start: '2017-09-04T13:00:00',
      zone: 'America/Los_Angeles',
      expected: Array.from(
        { length: 17 },
        (_, i) => DateTime.fromISO('2017-09-04T13:00:00').plus({ weeks: i }).toISODate()!,
      ),
    },
    {
      name: 'first Thursday of every other month from 29 August 2017 (first one in September)',
      recurrence: {
        pattern: {
          type: 'relativeMonthly',
          interval: 2,
          daysOfWeek: ['Thursday' as 'thursday'],
          index: 'first',
        },
        range: { type: 'noEnd', startDate: '2017-08-29' },
      },
      start: '2017-08-29T14:00:00',
      zone: 'America/Los_Angeles',
      expected: ['2017-09-07', '2017-11-02', '2018-01-04', '2018-03-01', '2018-05-03'],
    },
    {
      name: 'every three days, 10 times',
      recurrence: {
        pattern: { type: 'daily', interval: 3 },
        range: { type: 'numbered', startDate: '2017-04-02', numberOfOccurrences: 10 },
      },
      start: '2017-04-02T10:00:00',
      zone: 'Europe/London',
      expected: Array.from(
        { length: 10 },
        (_, i) =>
          DateTime.fromISO('2017-04-02')
            .plus({ days: 3 * i })
            .toISODate()!,
      ),
    },
    {
      name: 'every other Monday and Tuesday',
      recurrence: {
        pattern: { type: 'weekly', interval: 2, daysOfWeek: ['monday', 'tuesday'], firstDayOfWeek: 'sunday' },
        range: { type: 'numbered', startDate: '2017-05-15', numberOfOccurrences: 6 },
      },
      start: '2017-05-15T09:00:00',
      zone: 'America/New_York',
      expected: ['2017-05-15', '2017-05-16', '2017-05-29', '2017-05-30', '2017-06-12', '2017-06-13'],
    },
    {
      name: 'quarterly on the 7th',
      recurrence: {
        pattern: { type: 'absoluteMonthly', interval: 3, dayOfMonth: 7 },
        range: { type: 'endDate', startDate: '2017-01-07', endDate: '2017-12-31' },
      },
      start: '2017-01-07T09:00:00',
      zone: 'Europe/Berlin',
      expected: ['2017-01-07', '2017-04-07', '2017-07-07', '2017-10-07'],
    },
    {
      name: 'second Wednesday of every month',
      recurrence: {
        pattern: { type: 'relativeMonthly', interval: 1, daysOfWeek: ['wednesday'], index: 'second' },
        range: { type: 'numbered', startDate: '2017-01-11', numberOfOccurrences: 4 },
      },
      start: '2017-01-11T11:00:00',
      zone: 'Asia/Tokyo',
      expected: ['2017-01-11', '2017-02-08', '2017-03-08', '2017-04-12'],
    },
    {
      name: 'first Thursday or Friday of every month',
      recurrence: {
        pattern: { type: 'relativeMonthly', interval: 1, daysOfWeek: ['thursday', 'friday'], index: 'first' },
        range: { type: 'numbered', startDate: '2017-06-01', numberOfOccurrences: 4 },
      },
      start: '2017-06-01T15:00:00',
      zone: 'Europe/Paris',
      expected: ['2017-06-01', '2017-07-06', '2017-08-03', '2017-09-01'],
    },
    {
      name: 'April 15 every year',
      recurrence: {
        pattern: { type: 'absoluteYearly', interval: 1, dayOfMonth: 15, month: 4 },
        range: { type: 'numbered', startDate: '2017-04-15', numberOfOccurrences: 3 },
      },
      start: '2017-04-15T08:00:00',
      zone: 'America/Chicago',
      expected: ['2017-04-15', '2018-04-15', '2019-04-15'],
    },
    {
      name: 'last Wednesday of November every year',
      recurrence: {
        pattern: { type: 'relativeYearly', interval: 1, daysOfWeek: ['wednesday'], index: 'last', month: 11 },
        range: { type: 'numbered', startDate: '2017-11-29', numberOfOccurrences: 3 },
      },
      start: '2017-11-29T10:00:00',
      zone: 'America/New_York',
      expected: ['2017-11-29', '2018-11-28', '2019-11-27'],
    },
    {
      name: "day 31 monthly, moved to shorter months' last day as Outlook does",
      recurrence: {
        pattern: { type: 'absoluteMonthly', interval: 1, dayOfMonth: 31 },
        range: {
          type: 'numbered',
          startDate: '2027-01-31',
          numberOfOccurrences: 4,
          recurrenceTimeZone: 'Tokyo Standard Time',
        },
      },
      start: '2027-01-31T09:00:00',
      zone: 'Asia/Tokyo',
      expected: ['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30'],
    },
  ];

  it('expands Graph reference payloads to the instances Microsoft describes', () => {
    const cases = graphExamples.map((example, i): ReferenceCase => {
      let clock = clockOf(example.start, example.zone);
      clock = { ...clock, start: firstOccurrenceStart(example.recurrence, clock) };
      const set = parseRecurrence(fromGraphRecurrence(example.recurrence, clock), example.zone);
      const dtstart = DateTime.fromISO((clock.start as { date_time: string }).date_time, {
        zone: example.zone,
      });
      return {
        id: `graph-${i}`,
        rrule: set.rrule,
        dtstart: dtstart.toFormat("yyyy-MM-dd'T'HH:mm:ss"),
        timezone: example.zone,
        // A bounded range must end by itself; an unbounded one is read for as many as expected.
        count: example.expected.length + (example.recurrence.range.type === 'noEnd' ? 0 : 2),
      };
    });
    const reference = runPythonReference({ expand: cases });
    for (const [i, example] of graphExamples.entries()) {
      const starts = startsOf(reference.expand[`graph-${i}`]);
      expect({
        name: example.name,
        dates: Array.isArray(starts) ? starts.map((s) => s.slice(0, 10)) : starts,
      }).toEqual({
        name: example.name,
        dates: example.expected,
      });
    }
  });
});

describe('graph-recurrence exceptions and refusals', () => {
  const clock = clockOf('2026-03-02T09:00:00', 'America/New_York');

  it("turns EXDATEs at the series' time into cancelled dates and back, across a DST change", () => {
    const write = toGraphRecurrence(
      [
        'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6',
        'EXDATE;TZID=America/New_York:20260309T090000,20260323T090000',
        'EXDATE:20260316T150000Z',
      ],
      clock,
    );
    expect(write.cancelledDates).toEqual(['2026-03-09', '2026-03-23']);
    expect(fromGraphRecurrence(write.recurrence, clock, write.cancelledDates)).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6',
      'EXDATE;TZID=America/New_York:20260309T090000,20260323T090000',
    ]);
  });

  it('reads the date of an occurrence id from cancelledOccurrences', () => {
    expect(occurrenceDate('OID.AAMkAGI2TAAA=.2026-03-16')).toBe('2026-03-16');
    expect(occurrenceDate('AAMkAGI2TAAA=')).toBeUndefined();
  });

  it('writes an all-day series without a zone and reads its date UNTIL', () => {
    const allDay: SeriesClock = { start: { date: '2026-03-02' }, zone: 'Europe/Berlin' };
    const write = toGraphRecurrence(
      ['RRULE:FREQ=DAILY;UNTIL=20260305', 'EXDATE;VALUE=DATE:20260303'],
      allDay,
    );
    expect(write.recurrence.range).toEqual({
      type: 'endDate',
      startDate: '2026-03-02',
      endDate: '2026-03-05',
    });
    expect(write.cancelledDates).toEqual(['2026-03-03']);
    expect(fromGraphRecurrence(write.recurrence, allDay, write.cancelledDates)).toEqual([
      'RRULE:FREQ=DAILY;UNTIL=20260305T235959Z',
      'EXDATE;VALUE=DATE:20260303',
    ]);
  });

  it.each([
    ['FREQ=HOURLY;COUNT=3', 'FREQ'],
    ['FREQ=DAILY;BYHOUR=9,17', 'BYHOUR'],
    ['FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO', 'BYWEEKNO'],
    ['FREQ=MONTHLY;BYMONTHDAY=1,15', 'BYMONTHDAY'],
    ['FREQ=MONTHLY;BYMONTHDAY=31', 'BYMONTHDAY'],
    ['FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1,-1', 'BYSETPOS'],
    ['FREQ=MONTHLY;BYDAY=5MO', 'BYDAY'],
    ['FREQ=MONTHLY;BYDAY=MO', 'BYDAY'],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', 'BYMONTHDAY'],
    ['FREQ=WEEKLY;INTERVAL=2;BYDAY=WE', 'DTSTART'],
  ])('refuses %s naming %s', (rrule, part) => {
    let caught: unknown;
    try {
      toGraphRecurrence([`RRULE:${rrule}`], clock);
    } catch (error) {
      caught = error;
    }
    expect(isDomainError(caught, 'INVALID_RRULE') && caught.details).toMatchObject({
      part,
      provider: 'outlook',
    });
  });

  it('refuses RDATE lines rather than dropping them', () => {
    expect(() => toGraphRecurrence(['RRULE:FREQ=DAILY', 'RDATE:20260310T140000Z'], clock)).toThrow(/RDATE/);
  });

  it('reports a Graph recurrence it cannot read as PROVIDER_ERROR', () => {
    const broken = {
      pattern: { type: 'weekly', interval: 1, daysOfWeek: [] },
      range: { type: 'noEnd', startDate: '2026-03-02' },
    };
    let caught: unknown;
    try {
      fromGraphRecurrence(broken as unknown as GraphPatternedRecurrence, clock);
    } catch (error) {
      caught = error;
    }
    expect(isDomainError(caught, 'PROVIDER_ERROR')).toBe(true);
  });
});
