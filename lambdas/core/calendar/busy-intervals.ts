import type { CalendarEvent } from './event.js';
import { eventTimeMs } from './event-times.js';

export interface Interval {
  start: number;
  end: number;
}

/**
 * Whether an event makes its calendar busy: not cancelled, not marked free (transparent), and
 * not declined by the calendar's owner — the attendee each provider marks `self` on read.
 */
export function blocksTime(event: CalendarEvent): boolean {
  if (event.status === 'cancelled' || event.transparency === 'transparent') return false;
  return !event.attendees.some((a) => a.self === true && a.response_status === 'declined');
}

/**
 * Merges intervals into disjoint busy blocks clipped to [from, to): one sort and one sweep,
 * O(n log n). Touching intervals (end == start) merge into one block.
 */
export function mergeIntervals(intervals: readonly Interval[], from: number, to: number): Interval[] {
  const clipped = intervals
    .map((i) => ({ start: Math.max(i.start, from), end: Math.min(i.end, to) }))
    .filter((i) => i.end > i.start)
    .sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const interval of clipped) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

/** The busy intervals of events, all-day events placed in `zone`. */
export function eventIntervals(events: readonly CalendarEvent[], zone: string): Interval[] {
  return events.map((event) => ({
    start: eventTimeMs(event.start, zone),
    end: eventTimeMs(event.end, zone),
  }));
}
