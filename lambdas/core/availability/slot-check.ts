import type { Interval } from '../calendar/busy-intervals.js';
import { requireWindow } from './time-window.js';

/** Something that stops a slot being free: a busy interval (an event) or a booking hold. */
export type SlotConflict<B extends Interval, H extends Interval> =
  | { kind: 'busy'; interval: B }
  | { kind: 'hold'; interval: H };

export interface SlotCheck<B extends Interval, H extends Interval> {
  available: boolean;
  /** Everything overlapping the slot, in start order; busy before holds at the same start. */
  conflicts: SlotConflict<B, H>[];
}

/** Half-open overlap: touching spans ([9, 10) and [10, 11)) do not overlap; empty spans never do. */
function overlaps(a: Interval, b: Interval): boolean {
  return a.end > a.start && a.start < b.end && b.start < a.end;
}

/**
 * check_availability: a slot is free when no busy interval and no active booking hold overlaps
 * any part of it. Intervals are half-open, so an event ending exactly when the slot starts does
 * not conflict. Deciding which holds are still active (not expired) is the caller's job: it
 * knows the clock. The intervals keep their own type, so conflicts can carry event details.
 *
 * @example
 * isSlotFree(
 *   [{ start: Date.parse('2026-03-16T14:00:00Z'), end: Date.parse('2026-03-16T15:00:00Z') }],
 *   [],
 *   { start: Date.parse('2026-03-16T15:00:00Z'), end: Date.parse('2026-03-16T15:30:00Z') },
 * ); // { available: true, conflicts: [] }
 */
export function isSlotFree<B extends Interval, H extends Interval>(
  busy: readonly B[],
  holds: readonly H[],
  slot: Interval,
): SlotCheck<B, H> {
  requireWindow(slot.start, slot.end);
  const conflicts: SlotConflict<B, H>[] = [
    ...busy.filter((b) => overlaps(b, slot)).map((interval) => ({ kind: 'busy' as const, interval })),
    ...holds.filter((h) => overlaps(h, slot)).map((interval) => ({ kind: 'hold' as const, interval })),
  ];
  // A stable sort keeps busy before holds at the same start.
  conflicts.sort((a, b) => a.interval.start - b.interval.start);
  return { available: conflicts.length === 0, conflicts };
}
