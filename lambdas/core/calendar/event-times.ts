import { DomainError } from '../errors.js';
import { parseInstant } from '../time/instants.js';
import { DateTime } from '../time/luxon.js';
import { RFC_5545, wallClockToInstant } from '../time/wall-clock-to-instant.js';
import type { CalendarEvent, EventPatch, EventTime } from './event.js';

/**
 * Event times and ids every calendar path needs, one-off events included. Kept apart from
 * series.ts so that a read or write that meets no recurring series never loads the recurrence
 * code (rrule, ical.js): series.ts is imported dynamically where a series is met.
 */

const INSTANCE_ID = /^(.+)_(\d{8}(?:T\d{6}Z)?)$/;

/** Start of an event time as epoch ms; all-day dates are midnight UTC (series expand in UTC). */
export function eventTimeMs(time: EventTime, zone = 'UTC'): number {
  // 'YYYY-MM-DD' parses as UTC midnight: the wall clock of local midnight.
  if ('date' in time) return wallClockToInstant(Date.parse(time.date), zone, RFC_5545);
  return Date.parse(time.date_time);
}

/** The key of an original start: `YYYYMMDDTHHMMSSZ` (UTC) for timed, `YYYYMMDD` for all-day. */
export function originalKey(time: EventTime): string {
  if ('date' in time) return time.date.replace(/-/g, '');
  return DateTime.fromMillis(Date.parse(time.date_time), { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss'Z'");
}

/** `<master id>_<original key>`, the id Google gives instances too. */
export function instanceId(masterId: string, originalStart: EventTime): string {
  return `${masterId}_${originalKey(originalStart)}`;
}

/** Splits an instance id into master id and original key; undefined for a plain id. */
export function parseInstanceId(id: string): { masterId: string; key: string } | undefined {
  const match = INSTANCE_ID.exec(id);
  return match ? { masterId: match[1]!, key: match[2]! } : undefined;
}

/** Overlap with [fromMs, toMs): a zero-length event counts when it sits inside the window. */
export function overlapsWindow(event: CalendarEvent, fromMs: number, toMs: number): boolean {
  const start = eventTimeMs(event.start);
  const end = Math.max(eventTimeMs(event.end), start);
  return start < toMs && (end > fromMs || (end === start && start >= fromMs));
}

/**
 * A caller's event time: a timed one an RFC 3339 instant within years 0001–9999 (parseInstant),
 * an all-day one a real date. Unchecked, "" or "2026-02-30" reached the store as NaN.
 */
function checkEventTime(time: EventTime | undefined, field: 'start' | 'end'): void {
  if (time === undefined) return;
  if (!('date' in time)) {
    parseInstant(time.date_time, field);
  } else if (!DateTime.fromISO(time.date, { zone: 'utc' }).isValid) {
    throw new DomainError('INVALID_DATETIME', `"${field}.date" must be a real date such as "2026-03-15".`, {
      field,
    });
  }
}

/** Applies a patch to an event and checks the result still makes sense. */
/**
 * A new time given as an instant with an offset and no zone ("2027-01-12T11:00:00-05:00") keeps
 * the zone the event had: the offset fixes the instant, not the zone. Dropping it stored a moved
 * occurrence of a New York series in the calendar's zone, or UTC (issue 22 S3), and `time-of-day:`
 * rules and the series' own wall clock then read it in the wrong zone.
 */
function keepingZone(next: EventTime, current: EventTime): EventTime {
  if (!('date_time' in next) || next.time_zone || !('date_time' in current) || !current.time_zone)
    return next;
  return { ...next, time_zone: current.time_zone };
}

export function applyPatch(event: CalendarEvent, patch: EventPatch): CalendarEvent {
  checkEventTime(patch.start, 'start');
  checkEventTime(patch.end, 'end');
  const zoned = {
    ...patch,
    ...(patch.start ? { start: keepingZone(patch.start, event.start) } : {}),
    ...(patch.end ? { end: keepingZone(patch.end, event.end) } : {}),
  };
  const defined = Object.fromEntries(Object.entries(zoned).filter(([, value]) => value !== undefined));
  const next = { ...event, ...defined } as CalendarEvent;
  if ('date' in next.start !== 'date' in next.end) {
    throw new DomainError('INVALID_INPUT', 'start and end must both be dates (all-day) or both date-times.');
  }
  if (eventTimeMs(next.end) < eventTimeMs(next.start)) {
    throw new DomainError('INVALID_INPUT', 'end is before start: move end later or start earlier.');
  }
  return next;
}
