import { DomainError } from '../../errors.js';
import { FREQUENCIES, type RecurrenceRule } from './parse-rule.js';
import type { WallMs } from './wall-clock-text.js';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

const WEEK_SECONDS = 7 * 86_400;
const UNIT_SECONDS: Partial<Record<string, number>> = {
  DAILY: 86_400,
  HOURLY: 3600,
  MINUTELY: 60,
  SECONDLY: 1,
};
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * Refuses a DAILY…SECONDLY rule whose limiting parts (BYDAY, and BYHOUR/BYMINUTE/BYSECOND below
 * the frequency) can never be hit by stepping INTERVAL from DTSTART, e.g.
 * "FREQ=HOURLY;INTERVAL=2;BYHOUR=9" from 08:00 (only even hours come) or
 * "FREQ=DAILY;INTERVAL=7;BYDAY=TU" from a Monday. rrule 2.8 would step forever (with no year
 * limit in its inner loop for the time parts) or for seconds up to year 9999. dateutil refuses
 * the time-of-day cases too.
 *
 * Periods repeat weekly: the ones a rule visits are those congruent to DTSTART's modulo
 * gcd(INTERVAL, periods per week), and the rule can occur iff one allowed period is among them.
 *
 * @example
 * assertTimesReachable(parseRule('FREQ=HOURLY;INTERVAL=2;BYHOUR=9'), Date.UTC(2026, 0, 1, 8)); // throws INVALID_RRULE
 */
export function assertTimesReachable(rule: RecurrenceRule, dtstart: WallMs): void {
  const freq = FREQUENCIES[rule.freq]!;
  const unit = UNIT_SECONDS[freq];
  if (unit === undefined) return;
  // Only parts that limit (rather than expand) the periods at this frequency.
  const days = rule.byday?.map((day) => day.weekday);
  const hours = unit <= 3600 ? rule.byhour : undefined;
  const minutes = unit <= 60 ? rule.byminute : undefined;
  const seconds = unit <= 1 ? rule.bysecond : undefined;
  if (!days && !hours && !minutes && !seconds) return;

  const periodsPerWeek = WEEK_SECONDS / unit;
  const step = gcd(rule.interval % periodsPerWeek || periodsPerWeek, periodsPerWeek);
  const sinceMonday = Math.floor(dtstart / 1000) + 3 * 86_400; // 1970-01-01 was a Thursday
  const startResidue =
    Math.floor((((sinceMonday % WEEK_SECONDS) + WEEK_SECONDS) % WEEK_SECONDS) / unit) % step;
  // Periods per day (1 for DAILY), scanned per allowed weekday; stop at the first hit.
  const reachable = (days ?? range(7)).some((day) =>
    (unit === 86_400 ? [0] : (hours ?? range(24))).some((h) =>
      (unit >= 3600 ? [0] : (minutes ?? range(60))).some((m) =>
        (unit >= 60 ? [0] : (seconds ?? range(60))).some(
          (s) => Math.floor((day * 86_400 + h * 3600 + m * 60 + s) / unit) % step === startResidue,
        ),
      ),
    ),
  );
  if (!reachable) {
    const every = `${rule.interval} ${freq === 'DAILY' ? 'day' : freq === 'HOURLY' ? 'hour' : freq === 'MINUTELY' ? 'minute' : 'second'}(s)`;
    throw new DomainError(
      'INVALID_RRULE',
      `The rule never occurs: stepping every ${every} from dtstart never lands on the BYDAY/BYHOUR/BYMINUTE/BYSECOND values given. Change INTERVAL, those values, or dtstart.`,
      { part: 'INTERVAL' },
    );
  }
}
