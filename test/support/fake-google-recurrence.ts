import type { calendar_v3 } from '@googleapis/calendar';
import { DateTime } from 'luxon';
import rrulePackage from 'rrule';

/**
 * Recurrence expansion for the fake Google Calendar: RRULE (via the `rrule` package) plus EXDATE,
 * expanded in the series' own zone so that instances keep their wall-clock time across DST, as
 * Google does. RDATE is not supported (Meridian never writes it).
 */

type GoogleTime = calendar_v3.Schema$EventDateTime;
type GoogleEvent = calendar_v3.Schema$Event;

// rrule ships a UMD bundle as `main`: Node cannot see its named exports, so take the default.
const { RRule } = rrulePackage;

/** Upper bound on instances generated for one series (Google also caps open-ended series). */
const MAX_INSTANCES = 1000;

/**
 * Epoch milliseconds of a Google time; an all-day date starts at midnight in `zone`.
 *
 * @example
 * timeMs({ date: '2026-03-02' }, 'UTC'); // Date.UTC(2026, 2, 2)
 */
export function timeMs(time: GoogleTime, zone: string): number {
  if (time.dateTime) return Date.parse(time.dateTime);
  return DateTime.fromISO(time.date ?? '', { zone }).toMillis();
}

/**
 * The suffix Google appends to a series id to name an instance: basic UTC for timed series,
 * `YYYYMMDD` for all-day ones.
 *
 * @example
 * instanceSuffix({ dateTime: '2026-03-02T09:00:00-05:00' }); // '20260302T140000Z'
 */
export function instanceSuffix(time: GoogleTime): string {
  if (time.date) return time.date.replaceAll('-', '');
  return DateTime.fromISO(time.dateTime ?? '', { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss'Z'");
}

/** Wall-clock time in `zone` as a "floating" Date whose UTC fields are the wall fields (how rrule works). */
function floating(dt: DateTime): Date {
  return new Date(Date.UTC(dt.year, dt.month - 1, dt.day, dt.hour, dt.minute, dt.second));
}

function fromFloating(date: Date, zone: string, allDay: boolean): GoogleTime {
  const wall = DateTime.fromJSDate(date, { zone: 'utc' });
  if (allDay) return { date: wall.toISODate() };
  const local = DateTime.fromObject(
    {
      year: wall.year,
      month: wall.month,
      day: wall.day,
      hour: wall.hour,
      minute: wall.minute,
      second: wall.second,
    },
    { zone },
  );
  return { dateTime: local.toISO({ suppressMilliseconds: true }), timeZone: zone };
}

/** EXDATE values as instance suffixes, whatever form (UTC, TZID, VALUE=DATE) they were written in. */
function excludedSuffixes(recurrence: string[], zone: string): Set<string> {
  const excluded = new Set<string>();
  for (const line of recurrence.filter((l) => l.startsWith('EXDATE'))) {
    const [head = '', values = ''] = line.split(':');
    const tzid = /TZID=([^;:]+)/.exec(head)?.[1] ?? zone;
    for (const value of values.split(',')) {
      if (/^\d{8}$/.test(value)) excluded.add(value);
      else {
        const dt = value.endsWith('Z')
          ? DateTime.fromFormat(value, "yyyyMMdd'T'HHmmss'Z'", { zone: 'utc' })
          : DateTime.fromFormat(value, "yyyyMMdd'T'HHmmss", { zone: tzid });
        excluded.add(instanceSuffix({ dateTime: dt.toISO() }));
      }
    }
  }
  return excluded;
}

/**
 * The original starts of a series master, in order: every occurrence of its RRULE minus EXDATEs,
 * stopping at `beforeMs` (exclusive) when given.
 *
 * @example
 * seriesStarts({ start: { dateTime: '2026-03-02T09:00:00-05:00', timeZone: 'America/New_York' },
 *   recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2'] }, 'UTC').map((t) => t.dateTime);
 * // ['2026-03-02T09:00:00-05:00', '2026-03-09T09:00:00-04:00']
 */
export function seriesStarts(master: GoogleEvent, calendarZone: string, beforeMs?: number): GoogleTime[] {
  const start = master.start ?? {};
  const allDay = Boolean(start.date);
  const zone = start.timeZone ?? calendarZone;
  const recurrence = master.recurrence ?? [];
  const ruleLine = recurrence.find((line) => line.startsWith('RRULE:'));
  if (!ruleLine) return [start];
  const body = ruleLine.slice('RRULE:'.length);
  const options = RRule.parseString(body);
  const dtstart = allDay
    ? DateTime.fromISO(start.date ?? '', { zone: 'utc' })
    : DateTime.fromISO(start.dateTime ?? '').setZone(zone);
  if (options.until) {
    // A UTC UNTIL names an instant: compare it with the series' wall clock in its zone.
    const rawUntil = /UNTIL=([0-9TZ]+)/.exec(body)?.[1] ?? '';
    const until = DateTime.fromJSDate(options.until, { zone: 'utc' });
    options.until = rawUntil.endsWith('Z') ? floating(until.setZone(zone)) : options.until;
  }
  const rule = new RRule({ ...options, dtstart: floating(dtstart) });
  const excluded = excludedSuffixes(recurrence, zone);
  const starts: GoogleTime[] = [];
  rule.all((date, index) => {
    if (index >= MAX_INSTANCES) return false;
    const time = fromFloating(date, zone, allDay);
    if (beforeMs !== undefined && timeMs(time, zone) >= beforeMs) return false;
    if (!excluded.has(instanceSuffix(time))) starts.push(time);
    return true;
  });
  return starts;
}

/** True when `suffix` names one of the series' occurrences. */
export function isSeriesOccurrence(master: GoogleEvent, calendarZone: string, suffix: string): boolean {
  return seriesStarts(master, calendarZone).some((time) => instanceSuffix(time) === suffix);
}
