import { DateTime, type IANAZone } from 'luxon';
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
 * This one rule settles both DST cases the way a person reading the clock would:
 * - a time that is skipped (spring forward, e.g. 02:30 on 2026-03-08 in New York) gives the
 *   moment the clock jumps past it (03:00 EDT). Luxon would shift it by the gap (03:30), which
 *   would make a 02:30–03:15 shift end before it starts.
 * - a time that happens twice (fall back, e.g. 01:30 on 2026-11-01 in New York) gives its first
 *   occurrence (01:30 EDT), where Luxon picks the second.
 *
 * @example
 * firstInstantAt({ year: 2026, month: 3, day: 8 }, 150, IANAZone.create('America/New_York'));
 * // Date.parse('2026-03-08T07:00:00Z'), i.e. 03:00 EDT
 */
export function firstInstantAt(date: LocalDate, minuteOfDay: number, zone: IANAZone): number {
  // The wall time as if it were UTC: plain Date arithmetic rolls minutes past 1440 into the
  // next day (and month, and year) exactly.
  const wallAsUtc = Date.UTC(date.year, date.month - 1, date.day) + minuteOfDay * MINUTE_MS;
  const wall = new Date(wallAsUtc);
  const dt = DateTime.fromObject(
    {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
    },
    { zone },
  );
  const exists =
    dt.hour === wall.getUTCHours() && dt.minute === wall.getUTCMinutes() && dt.day === wall.getUTCDate();
  if (exists) return Math.min(...dt.getPossibleOffsets().map((candidate) => candidate.toMillis()));
  return transitionPast(wallAsUtc, dt, zone);
}

/**
 * The instant the clock jumps over a skipped wall time. Neither Luxon nor Intl exposes zone
 * transitions, so this searches for it: at `low` (the wall time read with the offset in force
 * after the gap) the clock still reads earlier than the wall time, at `high` (Luxon's shifted
 * answer) it reads later, and there is one transition in between. About 22 offset look-ups,
 * only on a day whose working hours start or end inside a gap.
 */
function transitionPast(wallAsUtc: number, shifted: DateTime, zone: IANAZone): number {
  const readsAtLeast = (t: number) => t + zone.offset(t) * MINUTE_MS >= wallAsUtc;
  let low = wallAsUtc - shifted.offset * MINUTE_MS;
  let high = shifted.toMillis();
  if (readsAtLeast(low)) return low;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (readsAtLeast(mid)) high = mid;
    else low = mid;
  }
  return high;
}
