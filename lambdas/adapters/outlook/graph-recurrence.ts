import type { EventTime } from '../../core/calendar/event.js';
import {
  formatRecurrence,
  parseRecurrence,
  rulePart,
  withRuleParts,
} from '../../core/calendar/recurrence-lines.js';
import { DateTime } from '../../core/time/luxon.js';
import { expandRrule } from '../../core/time/recurrence/expand-rrule.js';
import { parseRule, type RecurrenceRule } from '../../core/time/recurrence/parse-rule.js';
import { formatWallClock, parseWallClock, type WallMs } from '../../core/time/recurrence/wall-clock-text.js';
import { ZoneOffsets } from '../../core/time/recurrence/zone-offsets.js';
import { RFC_5545, wallClockToInstant } from '../../core/time/wall-clock-to-instant.js';
import { invalidGraph, patternOfRule, refuse, ruleOfPattern, type StartFields } from './graph-pattern.js';
import { GraphPatternedRecurrence, type GraphRecurrenceRange } from './graph-recurrence-schema.js';
import { ianaToWindowsZone, zoneFromGraph } from './windows-zones.js';

export * from './graph-recurrence-schema.js';

/**
 * Microsoft Graph `patternedRecurrence` ⇄ the domain's recurrence lines (RFC 5545 RRULE plus
 * EXDATE), exactly or not at all (ADR 0018). What one side cannot say is refused with
 * INVALID_RRULE naming the part (`details.part`) and why (`details.reason`), never approximated.
 *
 * Exceptions: Graph has no EXDATE. A series master lists its deleted occurrences in
 * `cancelledOccurrences` (occurrence ids `OID.<masterId>.<YYYY-MM-DD>`); an edited occurrence is
 * an `exception` event of its own (an override with `original_start` in the domain), not part of
 * the recurrence. Since a Graph pattern has at most one occurrence per local date, an exclusion is
 * a local date of the series' zone both ways: `toGraphRecurrence` returns the dates the adapter
 * must cancel (delete the instance of each after creating the series), and `fromGraphRecurrence`
 * turns the cancelled dates back into EXDATE at the series' start time.
 */

/** What Graph needs to create a series: the recurrence and the local dates to cancel after. */
export interface GraphRecurrenceWrite {
  recurrence: GraphPatternedRecurrence;
  /** Local dates (YYYY-MM-DD, series zone) of the occurrences the EXDATEs remove. */
  cancelledDates: string[];
}

/**
 * Where a series runs: its first start and the IANA zone its wall clock is in (for a timed
 * series the start's `time_zone` or the calendar's; ignored for an all-day one).
 */
export interface SeriesClock {
  start: EventTime;
  zone: string;
}

/** The series' wall clock: its zone ('UTC' for all-day), DTSTART in wall ms, and its fields. */
interface Wall {
  zone: string;
  allDay: boolean;
  dtstart: WallMs;
  /** DTSTART as the rules read it: "2026-03-02T09:00:00". */
  dtstartText: string;
  /** DTSTART's time of day: "09:00:00". */
  time: string;
  start: StartFields;
}

function wallOf(clock: SeriesClock): Wall {
  const allDay = 'date' in clock.start;
  const zone = allDay ? 'UTC' : clock.zone;
  const dtstartText =
    'date' in clock.start
      ? `${clock.start.date}T00:00:00`
      : DateTime.fromISO(clock.start.date_time, { setZone: true })
          .setZone(zone)
          .toFormat("yyyy-MM-dd'T'HH:mm:ss");
  const dtstart = parseWallClock(dtstartText, 'start');
  const date = new Date(dtstart);
  return {
    zone,
    allDay,
    dtstart,
    dtstartText,
    time: dtstartText.slice(11, 19),
    start: {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      weekday: (date.getUTCDay() + 6) % 7,
    },
  };
}

const DAY_MS = 86_400_000;
const dateOf = (wall: WallMs) => formatWallClock(wall).slice(0, 10);
const basicUtc = (epochMs: number) => `${formatWallClock(epochMs).replace(/[-:]/g, '')}Z`;

/** True when DTSTART is itself an occurrence of the rule's pattern (COUNT and UNTIL aside). */
function startsOnOccurrence(ruleParts: string[], wall: Wall): boolean {
  const first = expandRrule({
    rrule: ruleParts.join(';'),
    dtstart: wall.dtstartText,
    timezone: wall.zone,
    count: 1,
  });
  return (
    Date.parse(first.instances[0]?.start ?? '') === wallClockToInstant(wall.dtstart, wall.zone, RFC_5545)
  );
}

/**
 * The range's last date for an UNTIL instant: an Outlook series has one occurrence a day at the
 * series' time, so the day of UNTIL counts when that day's occurrence is not after UNTIL.
 */
function endDateOf(until: number, wall: Wall): string {
  const offsets = new ZoneOffsets(wall.zone);
  const untilDay = Math.floor((until + offsets.offsetAt(until)) / DAY_MS) * DAY_MS;
  const occurrence = wallClockToInstant(untilDay + (wall.dtstart % DAY_MS), offsets, RFC_5545);
  return dateOf(occurrence <= until ? untilDay : untilDay - DAY_MS);
}

/** UNTIL=YYYYMMDD (an all-day series' form) is taken off the rule before parse-rule sees it. */
function splitDateUntil(rrule: string): { rrule: string; untilDate?: string } {
  const value = rulePart(rrule, 'UNTIL');
  if (value === undefined || !/^\d{8}$/.test(value)) return { rrule };
  return {
    rrule: withRuleParts(rrule, { UNTIL: null }),
    untilDate: `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`,
  };
}

function rangeOf(rule: RecurrenceRule, untilDate: string | undefined, wall: Wall): GraphRecurrenceRange {
  const startDate = dateOf(wall.dtstart);
  const zone = wall.allDay ? {} : { recurrenceTimeZone: ianaToWindowsZone(wall.zone) };
  if (rule.count !== undefined) {
    return { type: 'numbered', startDate, numberOfOccurrences: rule.count, ...zone };
  }
  const endDate = untilDate ?? (rule.until === undefined ? undefined : endDateOf(rule.until, wall));
  if (endDate === undefined) return { type: 'noEnd', startDate, ...zone };
  if (endDate < startDate) refuse('UNTIL', 'UNTIL is before the start: the series has no occurrence.');
  return { type: 'endDate', startDate, endDate, ...zone };
}

/**
 * The local dates an EXDATE list cancels. An EXDATE at another time of day than the series'
 * removes no occurrence (each is at the series' time) and so cancels nothing.
 */
function cancelledDatesOf(exdates: readonly string[], wall: Wall): string[] {
  const offsets = new ZoneOffsets(wall.zone);
  const dates = exdates.flatMap((text) => {
    const excluded = parseWallClock(text, 'EXDATE');
    const day = Math.floor(excluded / DAY_MS) * DAY_MS;
    const occurrence = day + (wall.dtstart % DAY_MS);
    // Compared as instants: a time skipped by DST is the same instant as the one it moves to.
    const same =
      wallClockToInstant(occurrence, offsets, RFC_5545) === wallClockToInstant(excluded, offsets, RFC_5545);
    return same && day >= Math.floor(wall.dtstart / DAY_MS) * DAY_MS ? [dateOf(day)] : [];
  });
  return [...new Set(dates)].sort();
}

/**
 * A series' recurrence lines (one RRULE, optional EXDATEs) as Graph's patternedRecurrence.
 * Throws INVALID_RRULE (`details.part`, `details.reason`) for what Graph cannot express:
 * RDATE/EXRULE lines, FREQ=HOURLY/MINUTELY/SECONDLY, BYHOUR/BYMINUTE/BYSECOND, BYWEEKNO,
 * BYYEARDAY, several BYMONTHDAY or BYMONTH values, BYSETPOS other than one of 1…4 or -1, day
 * ordinals other than 1…4 or -1, a plain day 29…31 (Outlook moves those to the month's last day)
 * and, with INTERVAL > 1, a DTSTART that is not an occurrence (Outlook counts the interval from
 * the first occurrence, RFC 5545 from DTSTART). `cancelledDates` are the local dates of the
 * EXDATEs at the series' time: delete the instance on each after creating the series.
 *
 * @example
 * toGraphRecurrence(['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3'],
 *   { start: { date_time: '2026-01-30T10:00:00-05:00', time_zone: 'America/New_York' }, zone: 'America/New_York' });
 * // { recurrence: { pattern: { type: 'relativeMonthly', interval: 1, daysOfWeek: ['friday'], index: 'last' },
 * //   range: { type: 'numbered', startDate: '2026-01-30', numberOfOccurrences: 3, recurrenceTimeZone: 'Eastern Standard Time' } },
 * //   cancelledDates: [] }
 */
export function toGraphRecurrence(lines: readonly string[], clock: SeriesClock): GraphRecurrenceWrite {
  const wall = wallOf(clock);
  const set = parseRecurrence(lines, wall.zone);
  const other = set.other[0];
  if (other !== undefined) {
    refuse(
      other.split(/[:;]/)[0]!.toUpperCase(),
      'Outlook has no RDATE or EXRULE: list the dates as separate events.',
    );
  }
  const { rrule, untilDate } = splitDateUntil(set.rrule);
  if (untilDate !== undefined && !wall.allDay) {
    refuse('UNTIL', 'UNTIL is a date but the series is timed: give UNTIL as a UTC date-time.');
  }
  const rule = parseRule(rrule);
  const pattern = patternOfRule(rule, wall.start);
  const patternParts = withRuleParts(rrule.replace(/^RRULE:/i, ''), { COUNT: null, UNTIL: null }).split(';');
  if (rule.interval > 1 && pattern.type !== 'daily' && !startsOnOccurrence(patternParts, wall)) {
    refuse(
      'DTSTART',
      'with INTERVAL above 1 Outlook counts the interval from the first occurrence and RFC 5545 from DTSTART: start the series on its first occurrence.',
    );
  }
  return {
    recurrence: { pattern, range: rangeOf(rule, untilDate, wall) },
    cancelledDates: cancelledDatesOf(set.exdates, wall),
  };
}

function readGraph(recurrence: GraphPatternedRecurrence): GraphPatternedRecurrence {
  const parsed = GraphPatternedRecurrence.safeParse(recurrence);
  if (!parsed.success)
    invalidGraph(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

/** The instant just before the day after `date` in `zone` ends: an UNTIL keeping all of `date`. */
function untilEndOf(date: string, zone: string): string {
  const nextDay = parseWallClock(`${date}T00:00:00`, 'endDate') + DAY_MS;
  return basicUtc(wallClockToInstant(nextDay, zone, RFC_5545) - 1000);
}

/**
 * Graph's patternedRecurrence (and the series' cancelled occurrence dates) as recurrence lines:
 * one RRULE, then one EXDATE line when dates were cancelled. Throws PROVIDER_ERROR for a
 * recurrence Graph should not have sent, and for an INTERVAL above 1 whose series does not
 * start on an occurrence: pass {@link firstOccurrenceStart}'s answer as the start then.
 *
 * @example
 * fromGraphRecurrence(
 *   { pattern: { type: 'weekly', interval: 1, daysOfWeek: ['monday'], firstDayOfWeek: 'sunday' },
 *     range: { type: 'endDate', startDate: '2026-03-02', endDate: '2026-03-30' } },
 *   { start: { date_time: '2026-03-02T09:00:00-05:00', time_zone: 'America/New_York' }, zone: 'America/New_York' },
 *   ['2026-03-16']);
 * // ['RRULE:FREQ=WEEKLY;BYDAY=MO;WKST=SU;UNTIL=20260331T035959Z',
 * //  'EXDATE;TZID=America/New_York:20260316T090000']
 */
export function fromGraphRecurrence(
  recurrence: GraphPatternedRecurrence,
  clock: SeriesClock,
  cancelledDates: readonly string[] = [],
): string[] {
  const { pattern, range } = readGraph(recurrence);
  const wall = wallOf(clock);
  const parts = ruleOfPattern(pattern);
  const rangeZone =
    wall.allDay || !range.recurrenceTimeZone ? wall.zone : zoneFromGraph(range.recurrenceTimeZone);
  const startInstant = wallClockToInstant(wall.dtstart, wall.zone, RFC_5545);
  const startDay = DateTime.fromMillis(startInstant, { zone: rangeZone }).toISODate() ?? range.startDate;
  if (range.startDate > startDay) {
    invalidGraph(`the range starts on ${range.startDate}, after the series' start ${startDay}`);
  }
  if (pattern.interval > 1 && pattern.type !== 'daily' && !startsOnOccurrence(parts, wall)) {
    invalidGraph(
      'an interval counted from a first occurrence that is not the series start; pass firstOccurrenceStart',
    );
  }
  if (range.type === 'numbered') {
    if (!range.numberOfOccurrences) invalidGraph('a numbered range without numberOfOccurrences');
    parts.push(`COUNT=${range.numberOfOccurrences}`);
  } else if (range.type === 'endDate') {
    if (!range.endDate) invalidGraph('an endDate range without endDate');
    parts.push(`UNTIL=${untilEndOf(range.endDate, rangeZone)}`);
  }
  const exdates = cancelledDates.map((date) => `${date}T${wall.time}`);
  return formatRecurrence(
    { rrule: parts.join(';'), exdates: [...new Set(exdates)].sort(), other: [] },
    wall.zone,
    wall.allDay,
  );
}

/**
 * The start Outlook counts a series' interval from: its first occurrence on or after the range's
 * start (the series start when that is one). Give it to {@link fromGraphRecurrence} as the start.
 *
 * @example
 * // Graph's own example: first Thursday of every other month from Tuesday 29 August 2017.
 * firstOccurrenceStart({ pattern: { type: 'relativeMonthly', interval: 2, daysOfWeek: ['thursday'], index: 'first' },
 *   range: { type: 'noEnd', startDate: '2017-08-29' } },
 *   { start: { date_time: '2017-08-29T14:00:00-07:00', time_zone: 'America/Los_Angeles' }, zone: 'America/Los_Angeles' });
 * // { date_time: '2017-09-07T14:00:00-07:00', time_zone: 'America/Los_Angeles' }
 */
export function firstOccurrenceStart(recurrence: GraphPatternedRecurrence, clock: SeriesClock): EventTime {
  const { pattern } = readGraph(recurrence);
  const wall = wallOf(clock);
  const everyPeriod = ruleOfPattern({ ...pattern, interval: 1 });
  const first = expandRrule({
    rrule: everyPeriod.join(';'),
    dtstart: wall.dtstartText,
    timezone: wall.zone,
    count: 1,
  }).instances[0];
  if (!first) invalidGraph('a pattern that never occurs');
  if ('date' in clock.start) return { date: first.localStart.slice(0, 10) };
  return {
    date_time: first.localStart,
    ...(clock.start.time_zone ? { time_zone: clock.start.time_zone } : {}),
  };
}

/**
 * The local date an occurrence id names (`OID.<masterId>.<YYYY-MM-DD>`, as in a master's
 * `cancelledOccurrences`), or undefined for another shape.
 *
 * @example
 * occurrenceDate('OID.AAMkAGI2TAAA=.2026-03-16'); // '2026-03-16'
 */
export function occurrenceDate(occurrenceId: string): string | undefined {
  return /^OID\..+\.(\d{4}-\d{2}-\d{2})$/.exec(occurrenceId)?.[1];
}
