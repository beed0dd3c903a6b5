import type { WallClock } from './wall-clock.js';

export type PeriodUnit = 'day' | 'week' | 'month' | 'quarter' | 'year';

/**
 * The first wall-clock instant (00:00:00) of the period `shift` periods away from the one that
 * contains `today`. Weeks start on Monday (ISO 8601); quarters on January, April, July, October.
 *
 * @example
 * periodStart(wallClock({ year: 2026, month: 2, day: 20 })!, 'quarter', 1).toISODate(); // '2026-04-01'
 */
export function periodStart(today: WallClock, unit: PeriodUnit, shift: number): WallClock {
  // luxon's startOf('week') is the ISO (Monday) week unless locale weeks are asked for.
  return today.startOf(unit).plus({ [`${unit}s`]: shift });
}

/**
 * The last whole second (23:59:59) of the period `shift` periods away. A second, not a
 * millisecond, before the next period: it reads naturally and round-trips through RFC 3339.
 *
 * @example
 * periodEnd(wallClock({ year: 2026, month: 2, day: 20 })!, 'month', 0).toISO(); // '2026-02-28T23:59:59.000Z'
 */
export function periodEnd(today: WallClock, unit: PeriodUnit, shift: number): WallClock {
  return periodStart(today, unit, shift + 1).minus({ seconds: 1 });
}
