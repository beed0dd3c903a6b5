import { FREQUENCIES, type RecurrenceRule } from './parse-rule.js';
import type { WallMs } from './wall-clock-text.js';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function utcDate(year: number, monthIndex: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day); // unlike Date.UTC, keeps years 0–99 as they are
  return date.getTime();
}

/** Start of the latest period `origin + k·length` (k ≥ 0) that begins at or before `target`. */
function latestPeriodStart(origin: number, length: number, target: number): number {
  return origin + Math.max(0, Math.floor((target - origin) / length)) * length;
}

/**
 * A later DTSTART from which `rule` yields exactly the same dates at or after `target`, so a
 * window far from DTSTART is reached without walking every period in between. Returns
 * `dtstart` itself when the rule has a COUNT (the count runs from the real DTSTART, so every
 * earlier instance must be generated) or when `target` is not later.
 *
 * Why it is exact: rrule, like RFC 5545, walks periods of INTERVAL × FREQ starting with the one
 * that holds DTSTART (for WEEKLY: the week beginning on WKST), and each period yields only
 * dates inside itself. The result is the start of one of those same periods, at midnight (or
 * the top of the hour/minute), so no period's dates are lost. The caller must first pin the
 * parts DTSTART implied (`pinDtstartDefaults`), because moving DTSTART would change them.
 *
 * @example
 * fastForwardStart(parseRule('FREQ=WEEKLY;INTERVAL=2'), Date.UTC(1970, 0, 1, 9), Date.UTC(2026, 5, 10));
 * // Date.UTC(2026, 5, 1): a Monday an even number of weeks after the week of 1970-01-01
 */
export function fastForwardStart(rule: RecurrenceRule, dtstart: WallMs, target: WallMs): WallMs {
  if (rule.count !== undefined || target <= dtstart) return dtstart;
  const start = new Date(dtstart);
  const goal = new Date(target);
  const n = rule.interval;
  let periodStart: number;
  switch (FREQUENCIES[rule.freq]) {
    case 'YEARLY': {
      const year = start.getUTCFullYear();
      periodStart = utcDate(latestPeriodStart(year, n, goal.getUTCFullYear()), 0, 1);
      break;
    }
    case 'MONTHLY': {
      const month = start.getUTCFullYear() * 12 + start.getUTCMonth();
      const chosen = latestPeriodStart(month, n, goal.getUTCFullYear() * 12 + goal.getUTCMonth());
      periodStart = utcDate(Math.floor(chosen / 12), chosen % 12, 1);
      break;
    }
    case 'WEEKLY': {
      const daysIntoWeek = (((start.getUTCDay() + 6) % 7) - rule.wkst + 7) % 7; // Monday = 0, as WKST
      const weekStart = Math.floor(dtstart / DAY_MS) * DAY_MS - daysIntoWeek * DAY_MS;
      periodStart = latestPeriodStart(weekStart, 7 * n * DAY_MS, target);
      break;
    }
    case 'DAILY':
      periodStart = latestPeriodStart(Math.floor(dtstart / DAY_MS) * DAY_MS, n * DAY_MS, target);
      break;
    case 'HOURLY':
      periodStart = latestPeriodStart(Math.floor(dtstart / HOUR_MS) * HOUR_MS, n * HOUR_MS, target);
      break;
    case 'MINUTELY':
      periodStart = latestPeriodStart(Math.floor(dtstart / MINUTE_MS) * MINUTE_MS, n * MINUTE_MS, target);
      break;
    default:
      periodStart = latestPeriodStart(dtstart, n * SECOND_MS, target);
  }
  return periodStart > dtstart ? periodStart : dtstart;
}
