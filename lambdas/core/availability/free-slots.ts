import type { Interval } from '../calendar/busy-intervals.js';
import { DomainError } from '../errors.js';
import { mergeWithSources } from './merge-with-sources.js';
import { MINUTE_MS, requireWindow, wholeMinutes } from './time-window.js';
import { type WorkingHours, workingWindows } from './working-hours.js';

/** A free stretch of time; `duration_minutes` counts whole minutes. */
export interface FreeSlot extends Interval {
  duration_minutes: number;
}

export interface FreeSlotOptions {
  /** Shortest slot worth reporting; 0 reports every gap. @default 30 */
  minDurationMinutes?: number;
  /**
   * Minutes kept clear on both sides of every busy interval: each is widened by this much
   * before gaps are computed, so two events closer than twice the buffer leave no slot between.
   * Shorthand for both of the per-side buffers below, which override it.
   * @default 0
   */
  bufferMinutes?: number;
  /** Minutes kept clear before every busy interval (travel, preparation). @default bufferMinutes */
  bufferBeforeMinutes?: number;
  /** Minutes kept clear after every busy interval (a break, notes). @default bufferMinutes */
  bufferAfterMinutes?: number;
  /** Only time inside these hours is free. @default every hour of the window */
  workingHours?: WorkingHours;
}

function minutesOption(value: number, field: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new DomainError(
      'INVALID_INPUT',
      `"${field}" must be a number of minutes, 0 or more; got ${value}.`,
      {
        field,
      },
    );
  }
  return value * MINUTE_MS;
}

/**
 * The free slots of [from, to): the window (cut to working hours when given) minus the busy
 * intervals (widened by the buffers), keeping slots of at least `minDurationMinutes`. Busy
 * intervals may overlap and come in any order; empty ones block nothing. A busy interval
 * outside the window still blocks its buffer inside it, so pass the events of
 * [from − after-buffer, to + before-buffer).
 *
 * @example
 * freeSlots(
 *   [{ start: Date.parse('2026-03-16T10:00:00Z'), end: Date.parse('2026-03-16T11:00:00Z') }],
 *   Date.parse('2026-03-16T09:00:00Z'),
 *   Date.parse('2026-03-16T12:00:00Z'),
 *   { minDurationMinutes: 45, bufferMinutes: 10 },
 * );
 * // [{ start: …T09:00Z, end: …T09:50Z, duration_minutes: 50 }, { start: …T11:10Z, end: …T12:00Z, duration_minutes: 50 }]
 */
export function freeSlots(
  busy: readonly Interval[],
  from: number,
  to: number,
  options: FreeSlotOptions = {},
): FreeSlot[] {
  requireWindow(from, to);
  const minMs = minutesOption(options.minDurationMinutes ?? 30, 'min_duration_minutes');
  // An error names the field the caller actually set: the per-side one, else the shorthand.
  const side = (value: number | undefined, field: string) =>
    value === undefined
      ? minutesOption(options.bufferMinutes ?? 0, 'buffer_minutes')
      : minutesOption(value, field);
  const beforeMs = side(options.bufferBeforeMinutes, 'buffer_before_minutes');
  const afterMs = side(options.bufferAfterMinutes, 'buffer_after_minutes');
  const allowed = options.workingHours
    ? workingWindows(options.workingHours, from, to)
    : [{ start: from, end: to }];
  // Widen only real intervals: a zero-length one occupies no time, so it has no sides to pad.
  const widened =
    beforeMs === 0 && afterMs === 0
      ? busy
      : busy.filter((b) => b.end > b.start).map((b) => ({ start: b.start - beforeMs, end: b.end + afterMs }));
  const blocks = mergeWithSources([widened], from, to);
  const slots: FreeSlot[] = [];
  const keep = (start: number, end: number) => {
    if (end > start && end - start >= minMs)
      slots.push({ start, end, duration_minutes: wholeMinutes(end - start) });
  };
  // Both lists are sorted and disjoint: one pass subtracts the blocks from the windows.
  let next = 0;
  for (const window of allowed) {
    while (next < blocks.length && blocks[next]!.end <= window.start) next++;
    let cursor = window.start;
    for (let i = next; i < blocks.length && blocks[i]!.start < window.end; i++) {
      keep(cursor, blocks[i]!.start);
      cursor = Math.max(cursor, blocks[i]!.end);
    }
    keep(cursor, window.end);
  }
  return slots;
}
