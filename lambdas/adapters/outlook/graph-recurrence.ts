import { z } from 'zod';
import type { EventTime } from '../../core/calendar/event.js';

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

export const GRAPH_WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export const GraphWeekday = z.enum(GRAPH_WEEKDAYS);
export type GraphWeekday = z.infer<typeof GraphWeekday>;

export const GRAPH_WEEK_INDEXES = ['first', 'second', 'third', 'fourth', 'last'] as const;
export const GraphWeekIndex = z.enum(GRAPH_WEEK_INDEXES);
export type GraphWeekIndex = z.infer<typeof GraphWeekIndex>;

/**
 * Graph's recurrencePattern. Graph sends every field whatever the type (unused ones as 0,
 * "first", "sunday" or []); only the fields of the type are read.
 */
export const GraphRecurrencePattern = z.object({
  type: z.enum(['daily', 'weekly', 'absoluteMonthly', 'relativeMonthly', 'absoluteYearly', 'relativeYearly']),
  interval: z.number().int().min(1),
  daysOfWeek: z.array(GraphWeekday).optional(),
  dayOfMonth: z.number().int().min(0).max(31).optional(),
  month: z.number().int().min(0).max(12).optional(),
  index: GraphWeekIndex.optional(),
  firstDayOfWeek: GraphWeekday.optional(),
});
export type GraphRecurrencePattern = z.infer<typeof GraphRecurrencePattern>;

const graphDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');

/**
 * Graph's recurrenceRange. Dates are local dates of `recurrenceTimeZone` (a Windows or IANA
 * name; absent means the event's start zone). Graph sends `endDate: "0001-01-01"` and
 * `numberOfOccurrences: 0` for the types that do not use them.
 */
export const GraphRecurrenceRange = z.object({
  type: z.enum(['endDate', 'noEnd', 'numbered']),
  startDate: graphDate,
  endDate: graphDate.nullish(),
  numberOfOccurrences: z.number().int().min(0).optional(),
  recurrenceTimeZone: z.string().nullish(),
});
export type GraphRecurrenceRange = z.infer<typeof GraphRecurrenceRange>;

export const GraphPatternedRecurrence = z.object({
  pattern: GraphRecurrencePattern,
  range: GraphRecurrenceRange,
});
export type GraphPatternedRecurrence = z.infer<typeof GraphPatternedRecurrence>;

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

/**
 * A series' recurrence lines (one RRULE, optional EXDATEs) as Graph's patternedRecurrence.
 * Throws INVALID_RRULE (`details.part`, `details.reason`) for what Graph cannot express:
 * RDATE/EXRULE lines, FREQ=HOURLY/MINUTELY/SECONDLY, BYHOUR/BYMINUTE/BYSECOND, BYWEEKNO,
 * BYYEARDAY, several BYMONTHDAY or BYMONTH values, BYSETPOS other than one of 1…4 or -1, day
 * ordinals other than 1…4 or -1, BYMONTHDAY 29…31 alone (Graph moves those to the month's last
 * day), and EXDATEs that are not occurrences' start times.
 *
 * @example
 * toGraphRecurrence(['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3'],
 *   { start: { date_time: '2026-01-30T10:00:00-05:00', time_zone: 'America/New_York' }, zone: 'America/New_York' });
 * // { recurrence: { pattern: { type: 'relativeMonthly', interval: 1, daysOfWeek: ['friday'], index: 'last' },
 * //   range: { type: 'numbered', startDate: '2026-01-30', numberOfOccurrences: 3, recurrenceTimeZone: 'Eastern Standard Time' } },
 * //   cancelledDates: [] }
 */
export function toGraphRecurrence(lines: readonly string[], clock: SeriesClock): GraphRecurrenceWrite {
  void lines;
  void clock;
  throw new Error('toGraphRecurrence: being implemented on branch outlook-recurrence');
}

/**
 * Graph's patternedRecurrence (and the series' cancelled occurrence dates) as recurrence lines:
 * one RRULE, then one EXDATE line when dates were cancelled.
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
  void recurrence;
  void clock;
  void cancelledDates;
  throw new Error('fromGraphRecurrence: being implemented on branch outlook-recurrence');
}

/**
 * The local date an occurrence id names (`OID.<masterId>.<YYYY-MM-DD>`, as in a master's
 * `cancelledOccurrences`), or undefined for another shape.
 *
 * @example
 * occurrenceDate('OID.AAMkAGI2TAAA=.2026-03-16'); // '2026-03-16'
 */
export function occurrenceDate(occurrenceId: string): string | undefined {
  return /\.(\d{4}-\d{2}-\d{2})$/.exec(occurrenceId)?.[1];
}
