import { DateTime, type Zone } from 'luxon';

/**
 * A wall-clock reading (what a clock on the wall shows in some zone) carried as a luxon DateTime
 * in UTC whose fields ARE the local fields. Calendar arithmetic on it (plus days, startOf week,
 * end of month) is then plain calendar math: no DST, and no dependence on the host's TZ.
 */
export type WallClock = DateTime<true>;

const DAY_MS = 86_400_000;

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
 * The instant at which `zone`'s clocks show `wall`, with fixed rules for the two DST edge cases:
 * - a wall time inside a spring-forward gap moves forward by the length of the gap
 *   (02:30 on a 02:00→03:00 night becomes 03:30), like luxon and Temporal's "compatible";
 * - a wall time shown twice after a fall-back resolves to the FIRST (earlier) occurrence.
 *
 * Written by hand because luxon's `DateTime.fromObject` picks between the two occurrences by
 * guessing with the offset in force at the real current time (`Settings.now()`), which would make
 * the answer depend on the system clock; here the choice is explicit and deterministic.
 *
 * @example
 * wallClockToInstant(wallClock({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 })!, IANAZone.create('America/New_York'))
 *   .toISO(); // '2026-11-01T01:30:00.000-04:00' (EDT, the first of the two 01:30s)
 */
export function wallClockToInstant(wall: WallClock, zone: Zone): DateTime<true> {
  const local = wall.toMillis();
  // Every real offset lies within ±14 h, so the instant we look for is within a day of `local`:
  // the offsets a day either side are the ones before and after any transition near it.
  const before = zone.offset(local - DAY_MS);
  const after = zone.offset(local + DAY_MS);
  // The same offset on both sides: no transition near (we assume at most one within two days), so
  // that offset is the answer. This skips a lookup, each a formatToParts call, in the common case.
  if (before === after) return DateTime.fromMillis(local - before * 60_000, { zone }) as DateTime<true>;
  let earliest: number | undefined;
  for (const offset of [before, after]) {
    const instant = local - offset * 60_000;
    if (zone.offset(instant) === offset && (earliest === undefined || instant < earliest)) earliest = instant;
  }
  // No candidate round-trips: the wall time is in a gap. Reading it with the offset in force
  // before the gap lands the same distance past the transition, i.e. moves it forward by the gap.
  const instant = earliest ?? local - before * 60_000;
  return DateTime.fromMillis(instant, { zone }) as DateTime<true>;
}
