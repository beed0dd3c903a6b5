import { blocksTime, eventIntervals, type Interval } from '../calendar/busy-intervals.js';
import type { CalendarEvent } from '../calendar/event.js';

/**
 * The intervals during which events make a calendar busy: cancelled, free (transparent) and
 * declined-by-the-owner events are left out (see {@link blocksTime}); all-day events run from
 * midnight to midnight in the calendar's zone, so an all-day event in Pacific/Auckland covers
 * 11:00–11:00 UTC (during NZDT), not a UTC day.
 *
 * @example
 * busyIntervals(events, 'Pacific/Auckland', 'ann@example.com');
 * // [{ start: Date.parse('2026-03-15T11:00:00Z'), end: Date.parse('2026-03-16T11:00:00Z') }, …]
 */
export function busyIntervals(
  events: readonly CalendarEvent[],
  calendarZone: string,
  ownerEmail?: string,
): Interval[] {
  return eventIntervals(
    events.filter((event) => blocksTime(event, ownerEmail)),
    calendarZone,
  );
}
