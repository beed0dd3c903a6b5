import type { Interval } from '../calendar/busy-intervals.js';
import { type EndpointSort, sortedEndpoints } from './sorted-endpoints.js';
import { requireWindow } from './time-window.js';

/** A maximal busy stretch and how many calendars make it busy. */
export interface BusyBlock extends Interval {
  /**
   * The number of distinct calendars that have at least one interval inside this block.
   * Blocks are maximal unions of intervals clipped to the window, where intervals that overlap
   * or touch (one ends exactly when another starts) join the same block; so this counts the
   * calendars that are busy at some moment of [start, end), not the most busy at once.
   */
  source_count: number;
}

/**
 * Merges the busy intervals of many calendars into disjoint busy blocks over [from, to), each
 * with the number of calendars that contributed to it. Intervals are half-open epoch-ms spans;
 * they are clipped to the window, and empty ones (zero length, reversed, outside the window)
 * occupy no time and are ignored.
 *
 * One sort of the 2n endpoints (see {@link sortedEndpoints}) and one sweep that counts open
 * intervals: a block opens when the count leaves 0 and closes when it returns to 0. The sweep
 * allocates nothing per interval; a per-calendar stamp of the last block it was counted in
 * makes "distinct calendars" a constant-time check.
 *
 * `strategy` exists so tests can check both sort paths against each other; leave it `auto`.
 *
 * @example
 * mergeWithSources(
 *   [[{ start: 0, end: 10 }, { start: 10, end: 15 }], [{ start: 5, end: 20 }], [{ start: 30, end: 40 }]],
 *   0,
 *   100,
 * );
 * // [{ start: 0, end: 20, source_count: 2 }, { start: 30, end: 40, source_count: 1 }]
 */
export function mergeWithSources(
  intervalsByCalendar: readonly (readonly Interval[])[],
  from: number,
  to: number,
  strategy: EndpointSort = 'auto',
): BusyBlock[] {
  requireWindow(from, to);
  const { times, tags, count } = sortedEndpoints(intervalsByCalendar, from, to, strategy);
  const countedIn = new Int32Array(intervalsByCalendar.length).fill(-1);
  const blocks: BusyBlock[] = [];
  let open = 0;
  let blockStart = 0;
  let sources = 0;
  for (let i = 0; i < count; i++) {
    const tag = tags[i]!;
    if (tag >= 0) {
      if (open++ === 0) {
        blockStart = times[i]!;
        sources = 0;
      }
      // The block being built is blocks[blocks.length]; a calendar counts once per block.
      if (countedIn[tag] !== blocks.length) {
        countedIn[tag] = blocks.length;
        sources++;
      }
    } else if (--open === 0) {
      blocks.push({ start: blockStart, end: times[i]!, source_count: sources });
    }
  }
  return blocks;
}
