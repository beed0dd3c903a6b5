import * as z from 'zod';
import { DomainError } from '../errors.js';
import { formatInstant, parseInstant } from '../time/instants.js';
import { DateTime } from '../time/luxon.js';
import { parseWallClock } from '../time/recurrence/wall-clock-text.js';
import { RFC_5545, wallClockToInstant } from '../time/wall-clock-to-instant.js';
import { requireZone } from '../time/zones.js';
import { endKeepingLength, LOCAL_DATE_TIME } from './dst-gap-length.js';
import type { EventDraft, EventPatch, EventTime } from './event.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// A wall-clock time without offset (LOCAL_DATE_TIME) is read in the event's zone, else the
// calendar's (as Google does). Gap and overlap follow RFC 5545 (as RRULE expansion does): forward
// by the gap, first occurrence; an end on the same clock keeps the length written (dst-gap-length.ts).

const EVENT_TIME_EXAMPLES =
  '{"date_time": "2026-11-26T09:00:00", "time_zone": "Europe/Berlin"}, {"date": "2026-11-26"}, ' +
  '"2026-11-26T09:00:00Z" or "2026-11-26"';

/**
 * An event time as callers may write it: `{date_time, time_zone?}`, `{date}`, a plain RFC 3339
 * string or a plain `YYYY-MM-DD`. {@link resolveEventTime} turns it into the stored {@link EventTime}.
 */
export const EventTimeInput = z.union(
  [
    z.string(),
    z.object({ date_time: z.string(), time_zone: z.string().optional() }),
    z.object({ date: z.string().regex(DATE_ONLY) }),
  ],
  { error: () => `expected an event time, e.g. ${EVENT_TIME_EXAMPLES}` },
);
export type EventTimeInput = z.infer<typeof EventTimeInput>;

/** A draft or patch whose start and end are still in caller form. */
export type WithTimeInputs<T> = Omit<T, 'start' | 'end'> & {
  start?: EventTimeInput | undefined;
  end?: EventTimeInput | undefined;
};

function invalidDate(text: string, field: string): DomainError {
  return new DomainError(
    'INVALID_DATETIME',
    `"${field}" must be a real date as YYYY-MM-DD, e.g. "2026-11-26"; got "${text}".`,
    { field },
  );
}

function requireDate(text: string, field: string): string {
  if (!DATE_ONLY.test(text) || !DateTime.fromISO(text, { zone: 'utc' }).isValid)
    throw invalidDate(text, field);
  return text;
}

function localToInstant(text: string, zone: string, field: string): string {
  const instant = wallClockToInstant(parseWallClock(text, field), zone, RFC_5545);
  return formatInstant(DateTime.fromMillis(instant, { zone }));
}

/**
 * The one place an event time in caller form becomes the stored form. A `date_time` without an
 * offset is read in its `time_zone`, else in `fallbackZone` (the calendar's); never in the host's
 * zone. A `time_zone` must be an IANA name (INVALID_TIMEZONE with suggestions otherwise).
 *
 * @example
 * resolveEventTime({ date_time: '2026-11-30T14:00:00', time_zone: 'Europe/Berlin' }, 'UTC', 'start');
 * // { date_time: '2026-11-30T14:00:00+01:00', time_zone: 'Europe/Berlin' }
 */
export function resolveEventTime(input: EventTimeInput, fallbackZone: string, field: string): EventTime {
  if (typeof input === 'string') {
    const text = input.trim();
    if (DATE_ONLY.test(text)) return { date: requireDate(text, field) };
    return resolveEventTime({ date_time: text }, fallbackZone, field);
  }
  if ('date' in input) return { date: requireDate(input.date, `${field}.date`) };
  const zone =
    input.time_zone === undefined ? undefined : requireZone(input.time_zone, `${field}.time_zone`).name;
  const text = input.date_time.trim();
  const isLocal = LOCAL_DATE_TIME.test(text);
  // A time with an offset is kept as written (outputs show what the caller sent), once it parses.
  if (!isLocal) parseInstant(text, `${field}.date_time`);
  const dateTime = isLocal ? localToInstant(text, zone ?? fallbackZone, `${field}.date_time`) : text;
  return zone === undefined ? { date_time: dateTime } : { date_time: dateTime, time_zone: zone };
}

/** {@link resolveEventTime} for the start and end of a draft or patch (absent ones stay absent). */
export function resolveEventTimes<T extends EventDraft | EventPatch>(
  fields: WithTimeInputs<T>,
  fallbackZone: string,
): T {
  const { start, end, ...rest } = fields;
  const resolved = {
    start: start === undefined ? undefined : resolveEventTime(start, fallbackZone, 'start'),
    end: end === undefined ? undefined : resolveEventTime(end, fallbackZone, 'end'),
  };
  resolved.end = endKeepingLength(start, end, resolved.start, resolved.end, fallbackZone) ?? resolved.end;
  return {
    ...rest,
    ...(resolved.start === undefined ? {} : { start: resolved.start }),
    ...(resolved.end === undefined ? {} : { end: resolved.end }),
  } as T;
}

/** The instant an event time in caller form stands for; an all-day date is local midnight. */
export function eventTimeInstant(input: EventTimeInput, fallbackZone: string, field: string): DateTime<true> {
  return instantOf(resolveEventTime(input, fallbackZone, field), fallbackZone, field);
}

/**
 * The instants of a start and an end in caller form, the end keeping its length over a
 * spring-forward gap as {@link resolveEventTimes} keeps it.
 */
export function eventSpanInstants(
  start: EventTimeInput,
  end: EventTimeInput,
  fallbackZone: string,
): { start: DateTime<true>; end: DateTime<true> } {
  const resolved = {
    start: resolveEventTime(start, fallbackZone, 'start'),
    end: resolveEventTime(end, fallbackZone, 'end'),
  };
  resolved.end = endKeepingLength(start, end, resolved.start, resolved.end, fallbackZone) ?? resolved.end;
  return {
    start: instantOf(resolved.start, fallbackZone, 'start'),
    end: instantOf(resolved.end, fallbackZone, 'end'),
  };
}

function instantOf(time: EventTime, fallbackZone: string, field: string): DateTime<true> {
  if ('date' in time) {
    const zone = requireZone(fallbackZone, field);
    return DateTime.fromMillis(wallClockToInstant(Date.parse(time.date), zone, RFC_5545), {
      zone,
    }) as DateTime<true>;
  }
  return parseInstant(time.date_time, field);
}
