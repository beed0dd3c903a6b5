import type { EventTime } from '../../core/calendar/event.js';
import { DomainError } from '../../core/errors.js';
import { formatInstant } from '../../core/time/instants.js';
import { DateTime } from '../../core/time/luxon.js';
import { RFC_5545, wallClockToInstant } from '../../core/time/wall-clock-to-instant.js';
import type { GoogleTime } from './google-mapping.js';

/**
 * Pure helpers for editing a recurring series on Google: ending an RRULE before an instance,
 * continuing it in a new series, and moving a master by the wall-clock change made to an instance.
 *
 * RRULE lines are edited as text, part by part, rather than parsed and re-rendered with `rrule`:
 * re-rendering rewrites parts Meridian does not touch (order, WKST, BYxxx forms), and Google
 * compares recurrences textually when it decides what changed.
 */

const RULE_PREFIX = 'RRULE:';

function ruleParts(recurrence: string[]): string[] | undefined {
  const line = recurrence.find((l) => l.startsWith(RULE_PREFIX));
  return line?.slice(RULE_PREFIX.length).split(';');
}

/**
 * The COUNT of the series' RRULE, if it has one.
 *
 * @example
 * ruleCount(['RRULE:FREQ=WEEKLY;COUNT=5']); // 5
 */
export function ruleCount(recurrence: string[]): number | undefined {
  const part = ruleParts(recurrence)?.find((p) => p.startsWith('COUNT='));
  return part ? Number(part.slice('COUNT='.length)) : undefined;
}

/**
 * The recurrence with its RRULE's end replaced: COUNT and UNTIL are dropped (RFC 5545 allows only
 * one of them) and `end` is appended. Other lines (EXDATE, RDATE) are kept.
 *
 * @example
 * withRuleEnd(['RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=MO'], { until: '20260315T135959Z' });
 * // ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260315T135959Z']
 */
export function withRuleEnd(recurrence: string[], end: { until: string } | { count: number }): string[] {
  return recurrence.map((line) => {
    if (!line.startsWith(RULE_PREFIX)) return line;
    const parts = line
      .slice(RULE_PREFIX.length)
      .split(';')
      .filter((p) => !p.startsWith('COUNT=') && !p.startsWith('UNTIL='));
    parts.push('until' in end ? `UNTIL=${end.until}` : `COUNT=${end.count}`);
    return RULE_PREFIX + parts.join(';');
  });
}

/**
 * The UNTIL that ends a series just before the instance originally at `originalStart`: one second
 * earlier in basic UTC form, or the previous day for an all-day series (UNTIL must have the same
 * value type as DTSTART).
 *
 * @example
 * untilBefore({ dateTime: '2026-03-16T09:00:00-04:00' }); // '20260316T125959Z'
 * untilBefore({ date: '2026-03-16' }); // '20260315'
 */
export function untilBefore(originalStart: GoogleTime): string {
  if (originalStart.date) {
    return DateTime.fromISO(originalStart.date, { zone: 'utc' }).minus({ days: 1 }).toFormat('yyyyMMdd');
  }
  return DateTime.fromISO(originalStart.dateTime ?? '', { zone: 'utc' })
    .minus({ seconds: 1 })
    .toFormat("yyyyMMdd'T'HHmmss'Z'");
}

/** Epoch ms of a Google time, for ordering; all-day dates compare at UTC midnight. */
export function googleTimeMs(time: GoogleTime): number {
  return time.date ? Date.parse(`${time.date}T00:00:00Z`) : Date.parse(time.dateTime ?? '');
}

/**
 * `time` plus the length of the `from` → `to` interval, for a new series whose first instance is
 * `start` and that keeps the master's duration.
 *
 * @example
 * endAfter({ date: '2026-03-16' }, { date: '2026-03-02' }, { date: '2026-03-04' }); // { date: '2026-03-18' }
 */
export function endAfter(start: GoogleTime, from: GoogleTime, to: GoogleTime): GoogleTime {
  if (start.date) {
    const days = DateTime.fromISO(to.date ?? '').diff(DateTime.fromISO(from.date ?? ''), 'days').days;
    return { date: DateTime.fromISO(start.date).plus({ days }).toISODate() };
  }
  // Without a named zone, keep the offset the start was written with (never the host's zone).
  const zone = start.timeZone ?? DateTime.fromISO(start.dateTime ?? '', { setZone: true }).zone;
  const end = DateTime.fromMillis(googleTimeMs(start) + googleTimeMs(to) - googleTimeMs(from), { zone });
  return { dateTime: formatInstant(end), timeZone: start.timeZone ?? null };
}

/** Wall-clock time as a UTC DateTime with the same fields, so differences ignore DST shifts. */
function wallClock(dateTime: string, zone: string | undefined): DateTime {
  const dt = DateTime.fromISO(dateTime, { setZone: true });
  const local = zone ? dt.setZone(zone) : dt;
  return DateTime.fromObject(local.toObject(), { zone: 'utc' });
}

/**
 * Moves a series master's start or end by the wall-clock change an edit made to one instance
 * (`from` → `to`), so that "all events" edits keep every instance at the same new local time.
 *
 * @example
 * shiftByEdit({ dateTime: '2026-03-02T09:00:00-05:00', timeZone: 'America/New_York' },
 *   { date_time: '2026-03-16T09:00:00-04:00' }, { date_time: '2026-03-16T09:30:00-04:00' });
 * // { dateTime: '2026-03-02T09:30:00-05:00', timeZone: 'America/New_York', date: null }
 */
export function shiftByEdit(master: GoogleTime, from: EventTime, to: EventTime): GoogleTime {
  if ('date' in from !== 'date' in to || Boolean(master.date) !== 'date' in to) {
    throw new DomainError(
      'INVALID_INPUT',
      'Switching a whole series between all-day and timed is not supported; use scope "following" from its first instance, or recreate the series.',
    );
  }
  if ('date' in from && 'date' in to) {
    const days = DateTime.fromISO(to.date).diff(DateTime.fromISO(from.date), 'days').days;
    return {
      date: DateTime.fromISO(master.date ?? '')
        .plus({ days })
        .toISODate(),
      dateTime: null,
      timeZone: null,
    };
  }
  if ('date' in from || 'date' in to) throw new Error('unreachable: variants checked above');
  const zone = master.timeZone ?? undefined;
  const targetZone = to.time_zone ?? zone;
  const delta = wallClock(to.date_time, targetZone).diff(wallClock(from.date_time, from.time_zone ?? zone));
  const moved = wallClock(master.dateTime ?? '', zone).plus(delta);
  // Without a named zone, keep the offset the master was written with (never the host's zone).
  const placeIn = targetZone ?? DateTime.fromISO(master.dateTime ?? '', { setZone: true }).zone;
  const local = DateTime.fromMillis(wallClockToInstant(moved.toMillis(), placeIn, RFC_5545), {
    zone: placeIn,
  });
  return { dateTime: formatInstant(local), timeZone: targetZone ?? null, date: null };
}
