import type { WallClock } from './wall-clock.js';

/**
 * Which X a weekday phrase means. Week-based: 'this' (X of the current week), 'next' (of the
 * following week), 'last' (of the previous week). Counted from today: 'bare' (the first X strictly
 * after today), 'coming' (the first X on or after today), 'previous' (the most recent X strictly
 * before today).
 */
export type WeekdayModifier = 'next' | 'this' | 'last' | 'bare' | 'coming' | 'previous';

/**
 * The date a weekday phrase names, seen from `today` (a wall-clock date). Weeks run Monday–Sunday.
 * - 'this': X of the current week (may be in the past: "this Friday" on a Saturday is yesterday);
 * - 'next': X of the following week, so on a Monday "next Tuesday" is 8 days away, not tomorrow;
 * - 'last': X of the previous week ("Wednesday last week");
 * - 'previous': the most recent X strictly before today ("last Wednesday" on a Friday is 2 days ago);
 * - 'bare': the first X strictly after today (1–7 days ahead; on a Monday, "Monday" is in 7 days);
 * - 'coming': the first X on or after today.
 *
 * Week-based "next" gives every phrase a distinct answer (on a Monday, "this Tuesday" is tomorrow
 * and "next Tuesday" the week after) and agrees with "next week".
 *
 * @example
 * weekdayDate(wallClock({ year: 2026, month: 2, day: 20 })!, 2, 'next').toISODate(); // '2026-02-24'
 */
export function weekdayDate(today: WallClock, weekday: number, modifier: WeekdayModifier): WallClock {
  const day = today.startOf('day');
  if (modifier === 'bare' || modifier === 'coming') {
    const ahead = (weekday - day.weekday + 7) % 7;
    return day.plus({ days: ahead === 0 && modifier === 'bare' ? 7 : ahead });
  }
  if (modifier === 'previous') return day.minus({ days: (day.weekday - weekday + 7) % 7 || 7 });
  const thisWeek = day.minus({ days: day.weekday - 1 }).plus({ days: weekday - 1 });
  const weeks = modifier === 'next' ? 1 : modifier === 'last' ? -1 : 0;
  return thisWeek.plus({ weeks });
}
