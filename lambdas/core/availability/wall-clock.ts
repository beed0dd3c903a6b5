import type { IANAZone } from '../time/luxon.js';
import { CLOCK_READS, wallClockToInstant } from '../time/wall-clock-to-instant.js';
import { MINUTE_MS } from './time-window.js';

/** A local calendar date, as plain numbers (month 1–12). */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/**
 * The first instant at which a wall clock in `zone` reads `minuteOfDay` on `date`, or any later
 * time. Minutes past 1440 run into the following days: 1440 is midnight at the end of `date`.
 *
 * This is the {@link CLOCK_READS} policy, which settles both DST cases the way a person reading
 * the clock would:
 * - a time that is skipped (spring forward, e.g. 02:30 on 2026-03-08 in New York) gives the
 *   moment the clock jumps past it (03:00 EDT). RFC 5545's shift by the gap (03:30) would make a
 *   02:30–03:15 shift end before it starts.
 * - a time that happens twice (fall back, e.g. 01:30 on 2026-11-01 in New York) gives its first
 *   occurrence (01:30 EDT).
 *
 * @example
 * firstInstantAt({ year: 2026, month: 3, day: 8 }, 150, IANAZone.create('America/New_York'));
 * // Date.parse('2026-03-08T07:00:00Z'), i.e. 03:00 EDT
 */
export function firstInstantAt(date: LocalDate, minuteOfDay: number, zone: IANAZone): number {
  // The wall time as if it were UTC: plain Date arithmetic rolls minutes past 1440 into the
  // next day (and month, and year) exactly.
  const wallMs = Date.UTC(date.year, date.month - 1, date.day) + minuteOfDay * MINUTE_MS;
  return wallClockToInstant(wallMs, zone, CLOCK_READS);
}
