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
 * Start of the period (day, week from WKST, hour, minute, second) that holds `wall`, for the
 * frequencies whose periods have a fixed length. Undefined for MONTHLY and YEARLY.
 *
 * @example
 * fixedPeriodStart(parseRule('FREQ=WEEKLY;WKST=SU'), Date.UTC(2026, 2, 4, 9)); // Date.UTC(2026, 2, 1), a Sunday
 */
export function fixedPeriodStart(rule: RecurrenceRule, wall: WallMs): WallMs | undefined {
  switch (FREQUENCIES[rule.freq]) {
    case 'WEEKLY': {
      const daysIntoWeek = (((new Date(wall).getUTCDay() + 6) % 7) - rule.wkst + 7) % 7; // Monday = 0, as WKST
      return Math.floor(wall / DAY_MS) * DAY_MS - daysIntoWeek * DAY_MS;
    }
    case 'DAILY':
      return Math.floor(wall / DAY_MS) * DAY_MS;
    case 'HOURLY':
      return Math.floor(wall / HOUR_MS) * HOUR_MS;
    case 'MINUTELY':
      return Math.floor(wall / MINUTE_MS) * MINUTE_MS;
    case 'SECONDLY':
      return Math.floor(wall / SECOND_MS) * SECOND_MS;
    default:
      return undefined;
  }
}

/** Length of one INTERVAL of periods for the fixed-length frequencies (WEEKLY … SECONDLY). */
export function fixedPeriodLength(rule: RecurrenceRule): number | undefined {
  const unit = [undefined, undefined, 7 * DAY_MS, DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS][rule.freq];
  return unit === undefined ? undefined : unit * rule.interval;
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
  const origin = fixedPeriodStart(rule, dtstart);
  const length = fixedPeriodLength(rule);
  let periodStart: number;
  if (origin !== undefined && length !== undefined) {
    periodStart = latestPeriodStart(origin, length, target);
  } else if (FREQUENCIES[rule.freq] === 'MONTHLY') {
    const month = start.getUTCFullYear() * 12 + start.getUTCMonth();
    const chosen = latestPeriodStart(month, n, goal.getUTCFullYear() * 12 + goal.getUTCMonth());
    periodStart = utcDate(Math.floor(chosen / 12), chosen % 12, 1);
  } else {
    const year = start.getUTCFullYear();
    periodStart = utcDate(latestPeriodStart(year, n, goal.getUTCFullYear()), 0, 1);
  }
  return periodStart > dtstart ? periodStart : dtstart;
}
