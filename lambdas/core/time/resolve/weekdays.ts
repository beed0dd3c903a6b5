import type { WallClock } from './wall-clock.js';

/** How a weekday was qualified: "next Tuesday", "this Friday", "last Wednesday", or bare "Monday". */
export type WeekdayModifier = 'next' | 'this' | 'last' | 'bare';

/**
 * The date a weekday phrase names, seen from `today` (a wall-clock date). Weeks run Monday–Sunday.
 * - "this X": X of the current week (may be in the past: "this Friday" on a Saturday is yesterday);
 * - "next X": X of the following week, so on a Monday "next Tuesday" is 8 days away, not tomorrow;
 * - "last X": X of the previous week;
 * - bare "X": the first X strictly after today (1–7 days ahead; on a Monday, "Monday" is in 7 days).
 *
 * Week-based "next"/"last" give every phrase a distinct answer (on a Monday, "this Tuesday" is
 * tomorrow and "next Tuesday" the week after) and agree with "next week"/"last week".
 *
 * @example
 * weekdayDate(wallClock({ year: 2026, month: 2, day: 20 })!, 2, 'next').toISODate(); // '2026-02-24'
 */
export function weekdayDate(today: WallClock, weekday: number, modifier: WeekdayModifier): WallClock {
  const day = today.startOf('day');
  if (modifier === 'bare') {
    const ahead = (weekday - day.weekday + 7) % 7 || 7;
    return day.plus({ days: ahead });
  }
  const thisWeek = day.minus({ days: day.weekday - 1 }).plus({ days: weekday - 1 });
  const weeks = modifier === 'next' ? 1 : modifier === 'last' ? -1 : 0;
  return thisWeek.plus({ weeks });
}
