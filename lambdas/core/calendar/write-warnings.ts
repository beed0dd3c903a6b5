import type { Warning } from '../warnings.js';
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
