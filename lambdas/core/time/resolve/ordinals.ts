import { DomainError } from '../../errors.js';
import { type WallClock, wallClock } from './wall-clock.js';

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const ORDINAL_NAMES: Record<number, string> = {
  1: 'first',
  2: 'second',
  3: 'third',
  4: 'fourth',
  5: 'fifth',
};

/**
 * The `n`-th given weekday (ISO, Monday = 1) of a month; `n = -1` is the last one.
 * Throws OUT_OF_RANGE when the month has no such day (most months have no fifth Monday).
 *
 * @example
 * nthWeekdayOfMonth(2026, 3, 1, 1).toISODate(); // '2026-03-02', the first Monday of March 2026
 */
export function nthWeekdayOfMonth(year: number, month: number, weekday: number, n: number): WallClock {
  const first = wallClock({ year, month, day: 1 })!;
  if (n < 0) {
    const last = first.endOf('month').startOf('day');
    return last.minus({ days: (last.weekday - weekday + 7) % 7 });
  }
  const date = first.plus({ days: ((weekday - first.weekday + 7) % 7) + 7 * (n - 1) });
  if (date.month !== month) {
    throw new DomainError(
      'OUT_OF_RANGE',
      `${first.setLocale('en-US').toFormat('LLLL yyyy')} has no ${ORDINAL_NAMES[n] ?? `${n}th`} ${WEEKDAY_NAMES[weekday - 1]}. Use "last ${WEEKDAY_NAMES[weekday - 1]} of …" for the final one.`,
      { year, month, weekday: WEEKDAY_NAMES[weekday - 1], ordinal: n },
    );
  }
  return date;
}

/**
 * The `n`-th day of a month; `n = -1` is its last day.
 *
 * @example
 * nthDayOfMonth(2026, 2, -1).toISODate(); // '2026-02-28'
 */
export function nthDayOfMonth(year: number, month: number, n: number): WallClock {
  const first = wallClock({ year, month, day: 1 })!;
  return n < 0 ? first.endOf('month').startOf('day') : first.plus({ days: n - 1 });
}

/**
 * The year a month named without one refers to: this year if that month has not ended yet,
 * otherwise next year ("first Monday of March" said in April means next March).
 *
 * @example
 * yearOfUpcomingMonth(wallClock({ year: 2026, month: 4, day: 1 })!, 3); // 2027
 */
export function yearOfUpcomingMonth(today: WallClock, month: number): number {
  return month >= today.month ? today.year : today.year + 1;
}
