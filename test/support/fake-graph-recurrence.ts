import { DateTime } from 'luxon';
import { seriesStarts } from './fake-google-recurrence.js';
import { type GraphTime, graphTimeMs, ianaZone } from './fake-graph-time.js';

/**
 * Occurrences of a Graph `patternedRecurrence` for the fake Graph. The pattern is spelled as an
 * RRULE by the fake's own small table (written from Graph's recurrencePattern reference, apart
 * from the adapter's conversion so that the two check each other) and expanded by the fake Google
 * expansion, in the range's `recurrenceTimeZone`.
 */

export interface GraphRecurrence {
  pattern: {
    type: string;
    interval?: number;
    month?: number;
    dayOfMonth?: number;
    daysOfWeek?: string[];
    firstDayOfWeek?: string;
    index?: string;
  };
  range: {
    type: string;
    startDate?: string;
    endDate?: string;
    numberOfOccurrences?: number;
    recurrenceTimeZone?: string;
  };
}

const DAYS: Record<string, string> = {
  sunday: 'SU',
  monday: 'MO',
  tuesday: 'TU',
  wednesday: 'WE',
  thursday: 'TH',
  friday: 'FR',
  saturday: 'SA',
};
const INDEX: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, last: -1 };

/** The RRULE body of a pattern and range; throws on a shape Graph would refuse. */
export function patternRule(recurrence: GraphRecurrence, zone: string): string {
  const { pattern, range } = recurrence;
  const parts = [`INTERVAL=${pattern.interval ?? 1}`];
  const days = (pattern.daysOfWeek ?? []).map((d) => DAYS[d.toLowerCase()] ?? '??').join(',');
  const relative = () => [`BYDAY=${days}`, `BYSETPOS=${INDEX[pattern.index ?? 'first'] ?? 1}`];
  switch (pattern.type) {
    case 'daily':
      parts.unshift('FREQ=DAILY');
      break;
    case 'weekly':
      parts.unshift('FREQ=WEEKLY');
      parts.push(`BYDAY=${days}`, `WKST=${DAYS[(pattern.firstDayOfWeek ?? 'sunday').toLowerCase()]}`);
      break;
    case 'absoluteMonthly':
      parts.unshift('FREQ=MONTHLY');
      parts.push(`BYMONTHDAY=${pattern.dayOfMonth}`);
      break;
    case 'relativeMonthly':
      parts.unshift('FREQ=MONTHLY');
      parts.push(...relative());
      break;
    case 'absoluteYearly':
      parts.unshift('FREQ=YEARLY');
      parts.push(`BYMONTH=${pattern.month}`, `BYMONTHDAY=${pattern.dayOfMonth}`);
      break;
    case 'relativeYearly':
      parts.unshift('FREQ=YEARLY');
      parts.push(`BYMONTH=${pattern.month}`, ...relative());
      break;
    default:
      throw new Error(`unknown recurrence pattern type "${pattern.type}"`);
  }
  if (range.type === 'numbered') parts.push(`COUNT=${range.numberOfOccurrences}`);
  if (range.type === 'endDate') {
    // endDate is inclusive: the series runs to the end of that day in its zone.
    const end = DateTime.fromISO(range.endDate ?? '', { zone }).endOf('day');
    parts.push(`UNTIL=${end.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`);
  }
  return parts.join(';');
}

/**
 * The original starts (epoch ms) of a series master, in order, from its start time.
 *
 * @example
 * occurrenceStarts({ dateTime: '2026-03-02T09:00:00', timeZone: 'Eastern Standard Time' }, false, weeklyFive);
 */
export function occurrenceStarts(start: GraphTime, isAllDay: boolean, recurrence: GraphRecurrence): number[] {
  const zone = ianaZone(recurrence.range.recurrenceTimeZone ?? start.timeZone) ?? 'UTC';
  const startMs = graphTimeMs(start);
  const rule = patternRule(recurrence, zone);
  const local = DateTime.fromMillis(startMs, { zone });
  const master = isAllDay
    ? { start: { date: local.toISODate() }, recurrence: [`RRULE:${rule}`] }
    : { start: { dateTime: local.toISO(), timeZone: zone }, recurrence: [`RRULE:${rule}`] };
  return seriesStarts(master, zone).map((time) =>
    time.date ? DateTime.fromISO(time.date, { zone }).toMillis() : Date.parse(time.dateTime ?? ''),
  );
}
