import { DateTime, type Zone } from '../luxon.js';
import { RFC_5545, wallClockToInstant } from '../wall-clock-to-instant.js';

/**
 * A wall-clock reading (what a clock on the wall shows in some zone) carried as a luxon DateTime
 * in UTC whose fields ARE the local fields. Calendar arithmetic on it (plus days, startOf week,
 * end of month) is then plain calendar math: no DST, and no dependence on the host's TZ.
 */
export type WallClock = DateTime<true>;

/**
 * The wall clock shown in `instant`'s own zone.
 *
 * @example
 * wallClockOf(DateTime.fromISO('2026-03-15T14:00:00Z').setZone('America/New_York')).hour; // 10
 */
export function wallClockOf(instant: DateTime<true>): WallClock {
  return DateTime.fromObject(
    {
      year: instant.year,
      month: instant.month,
      day: instant.day,
      hour: instant.hour,
      minute: instant.minute,
      second: instant.second,
      millisecond: instant.millisecond,
    },
    { zone: 'utc' },
  ) as WallClock;
}

/** A wall clock from explicit fields; null when the fields name no real date (Feb 30, hour 24). */
export function wallClock(fields: {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
}): WallClock | null {
  const wall = DateTime.fromObject(fields, { zone: 'utc' });
  return wall.isValid ? wall : null;
}

/**
 * The instant at which `zone`'s clocks show `wall`, read as RFC 5545 reads it (see
 * ../wall-clock-to-instant.ts): a wall time inside a spring-forward gap moves forward by the
 * length of the gap (02:30 on a 02:00→03:00 night becomes 03:30), like luxon and Temporal's
 * "compatible"; a wall time shown twice after a fall-back is the FIRST (earlier) occurrence.
 * Never luxon's `DateTime.fromObject`, which picks between the two occurrences by the offset in
 * force at the real current time, so its answer would depend on the system clock.
 *
 * @example
 * wallClockInZone(wallClock({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 })!, IANAZone.create('America/New_York'))
 *   .toISO(); // '2026-11-01T01:30:00.000-04:00' (EDT, the first of the two 01:30s)
 */
export function wallClockInZone(wall: WallClock, zone: Zone): DateTime<true> {
  return DateTime.fromMillis(wallClockToInstant(wall.toMillis(), zone, RFC_5545), { zone }) as DateTime<true>;
}
