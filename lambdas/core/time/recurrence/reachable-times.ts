import { DomainError } from '../../errors.js';
import { FREQUENCIES, type RecurrenceRule } from './parse-rule.js';
import type { WallMs } from './wall-clock-text.js';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

const ALL_HOURS = Array.from({ length: 24 }, (_, i) => i);
const ALL_MINUTES = Array.from({ length: 60 }, (_, i) => i);

/**
 * Refuses an HOURLY/MINUTELY/SECONDLY rule whose BYHOUR/BYMINUTE/BYSECOND can never be hit from
 * DTSTART, e.g. "FREQ=HOURLY;INTERVAL=2;BYHOUR=9" starting at 08:00 (only even hours come).
 * Such a rule would never end: rrule 2.8 steps INTERVAL forever looking for a match, with no
 * year limit in that inner loop. dateutil has the same check.
 *
 * The periods of the day a rule visits are those congruent to DTSTART's modulo
 * gcd(INTERVAL, periods per day); the rule can occur iff one allowed time is among them.
 *
 * @example
 * assertTimesReachable(parseRule('FREQ=HOURLY;INTERVAL=2;BYHOUR=9'), Date.UTC(2026, 0, 1, 8)); // throws INVALID_RRULE
 */
export function assertTimesReachable(rule: RecurrenceRule, dtstart: WallMs): void {
  const freq = FREQUENCIES[rule.freq];
  if (freq !== 'HOURLY' && freq !== 'MINUTELY' && freq !== 'SECONDLY') return;
  // Only the parts that limit (rather than expand) the periods at this frequency.
  const hours = rule.byhour;
  const minutes = freq === 'HOURLY' ? undefined : rule.byminute;
  const seconds = freq === 'SECONDLY' ? rule.bysecond : undefined;
  if (!hours && !minutes && !seconds) return;
  const unitSeconds = freq === 'HOURLY' ? 3600 : freq === 'MINUTELY' ? 60 : 1;
  const periodsPerDay = 86_400 / unitSeconds;
  const step = gcd(rule.interval % periodsPerDay || periodsPerDay, periodsPerDay);
  const start = new Date(dtstart);
  const startPeriod =
    Math.floor(
      (start.getUTCHours() * 3600 + start.getUTCMinutes() * 60 + start.getUTCSeconds()) / unitSeconds,
    ) % step;
  const reachable = (hours ?? ALL_HOURS).some((h) =>
    freq === 'HOURLY'
      ? h % step === startPeriod
      : (minutes ?? ALL_MINUTES).some((m) =>
          freq === 'MINUTELY'
            ? (h * 60 + m) % step === startPeriod
            : (seconds ?? ALL_MINUTES).some((s) => (h * 3600 + m * 60 + s) % step === startPeriod),
        ),
  );
  if (!reachable) {
    const every = `${rule.interval} ${freq === 'HOURLY' ? 'hour' : freq === 'MINUTELY' ? 'minute' : 'second'}(s)`;
    throw new DomainError(
      'INVALID_RRULE',
      `The rule never occurs: stepping every ${every} from dtstart never lands on the BYHOUR/BYMINUTE/BYSECOND values given. Change INTERVAL, those values, or dtstart's time.`,
      { part: 'INTERVAL' },
    );
  }
}
