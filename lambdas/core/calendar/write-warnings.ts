import type { Warning } from '../warnings.js';
import { isSkippedWallTime, wallClockOf, zoneOfInput } from './dst-gap-length.js';
import type { EventTimeInput } from './event-time.js';
import type { EventView } from './event-view.js';

/**
 * TIME_IN_PAST when a written event begins before `now` (an all-day one: when its last day is
 * over). Writing the past is allowed (timesheets are backfilled), but an agent that meant "next
 * Tuesday" and got "today, two hours ago" must hear of it.
 *
 * @example
 * pastWarnings(view, new Date('2026-11-27T16:00:00Z')); // [{ code: 'TIME_IN_PAST', … }] for a 09:00 New York start
 */
export function pastWarnings(event: EventView, now: Date): Warning[] {
  const past = event.all_day
    ? Date.parse(event.end_utc) <= now.getTime()
    : Date.parse(event.start_utc) < now.getTime();
  if (!past) return [];
  return [
    {
      code: 'TIME_IN_PAST',
      message:
        `The event starts ${event.start_local}, before now (${now.toISOString()}). ` +
        'If that was not meant, move it with update_event.',
      field: 'start',
    },
  ];
}

/**
 * TIME_SHIFTED_BY_DST_GAP for each of start and end written as a wall time the zone's clock skips
 * (RFC 5545 reads it forward by the gap; an end keeps the length written: dst-gap-length.ts).
 *
 * @example
 * gapWarnings({ start: { date_time: '2027-03-14T02:30:00', time_zone: 'America/New_York' } }, view);
 * // [{ code: 'TIME_SHIFTED_BY_DST_GAP', field: 'start', message: 'start 2027-03-14T02:30:00 does not exist … 03:30 …' }]
 */
export function gapWarnings(
  input: { start?: EventTimeInput | undefined; end?: EventTimeInput | undefined },
  event: EventView,
): Warning[] {
  const warnings: Warning[] = [];
  for (const field of ['start', 'end'] as const) {
    const wall = wallClockOf(input[field]);
    const zone = zoneOfInput(input[field], event.time_zone);
    if (wall === undefined || !isSkippedWallTime(wall, zone, field)) continue;
    warnings.push({
      code: 'TIME_SHIFTED_BY_DST_GAP',
      field,
      message:
        `${field} ${wall} does not exist in ${zone} (the clocks skip it going forward): it moved forward by the gap, ` +
        `as RFC 5545 reads it. The event runs ${event.start_local} to ${event.end_local}` +
        `${field === 'start' ? ', keeping the length you wrote' : ''}.`,
    });
  }
  return warnings;
}

/**
 * The warnings of a write that set start or end: the DST gap's, then the past's. A write that
 * moved neither (a new title) warns of nothing.
 */
export function timeWriteWarnings(
  input: { start?: EventTimeInput | undefined; end?: EventTimeInput | undefined },
  event: EventView,
  now: Date,
): Warning[] {
  if (input.start === undefined && input.end === undefined) return [];
  return [...gapWarnings(input, event), ...(input.start === undefined ? [] : pastWarnings(event, now))];
}
