import { formatInstant, parseInstant } from '../time/instants.js';
import { DateTime } from '../time/luxon.js';
import { parseWallClock } from '../time/recurrence/wall-clock-text.js';
import { wallClockToInstant } from '../time/wall-clock-to-instant.js';
import type { EventTime } from './event.js';
import type { EventTimeInput } from './event-time.js';

/** A wall-clock `date_time` without offset: read in the event's zone, else the calendar's. */
export const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2})?$/;

const SKIPPED = { gap: 'reject', overlap: 'earlier' } as const;

/** The wall-clock text of a `date_time` given without offset, else undefined. */
export function wallClockOf(input: EventTimeInput | undefined): string | undefined {
  const text = (
    typeof input === 'string' ? input : input && 'date_time' in input ? input.date_time : ''
  ).trim();
  return LOCAL_DATE_TIME.test(text) ? text.replace(/[t ]/, 'T') : undefined;
}

/** The zone a caller-form time is read in: its own `time_zone`, else `fallbackZone`. */
export function zoneOfInput(input: EventTimeInput | undefined, fallbackZone: string): string {
  return typeof input === 'object' && 'time_zone' in input && input.time_zone
    ? input.time_zone
    : fallbackZone;
}

/** True when `wall` (local text) is a time `zone`'s clock skips (a spring-forward gap). */
export function isSkippedWallTime(wall: string, zone: string, field: string): boolean {
  return wallClockToInstant(parseWallClock(wall, field), zone, SKIPPED) === null;
}

/**
 * The end an event keeps when its start falls in a spring-forward gap. RFC 5545 §3.3.5 reads such
 * a start with the offset before the gap (02:30 → 03:30 on New York's 14 March 2027), which would
 * leave an end written on the same clock (04:30) one hour after it, not the two the caller wrote —
 * or none at all. The caller wrote a length on that clock, so the end keeps it: start + (wall end −
 * wall start), as a DTSTART with a DURATION does and as Python's same-zone datetime arithmetic
 * reads it. Undefined when nothing moves (start not in a gap, an end with an offset, or another zone).
 *
 * @example
 * endKeepingLength(ny('2027-03-14T02:30:00'), ny('2027-03-14T04:30:00'), { date_time: '2027-03-14T03:30:00-04:00', … }, 'UTC');
 * // { date_time: '2027-03-14T05:30:00-04:00', time_zone: 'America/New_York' }
 */
export function endKeepingLength(
  start: EventTimeInput | undefined,
  end: EventTimeInput | undefined,
  resolvedStart: EventTime | undefined,
  resolvedEnd: EventTime | undefined,
  fallbackZone: string,
): EventTime | undefined {
  const [wallStart, wallEnd] = [wallClockOf(start), wallClockOf(end)];
  if (wallStart === undefined || wallEnd === undefined) return undefined;
  if (!resolvedStart || !resolvedEnd || !('date_time' in resolvedStart) || !('date_time' in resolvedEnd))
    return undefined;
  const zone = zoneOfInput(start, fallbackZone);
  if (zoneOfInput(end, fallbackZone) !== zone || !isSkippedWallTime(wallStart, zone, 'start'))
    return undefined;
  const length = parseWallClock(wallEnd, 'end') - parseWallClock(wallStart, 'start');
  if (length <= 0) return undefined;
  const endMs = parseInstant(resolvedStart.date_time, 'start').toMillis() + length;
  const dateTime = formatInstant(DateTime.fromMillis(endMs, { zone }));
  return { ...resolvedEnd, date_time: dateTime };
}
