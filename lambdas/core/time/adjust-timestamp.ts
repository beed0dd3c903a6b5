import { DomainError } from '../errors.js';
import type { TimeDeps } from '../ports/index.js';
import { parseCompactDuration } from './compact-duration.js';
import { formatInstant, formatUtc, parseInstant } from './instants.js';
import { requireZone } from './zones.js';

export interface AdjustedTimestamp {
  original: string;
  adjusted_utc: string;
  adjusted_local: string;
  adjustment_applied: string;
  /** The zone whose wall clock the day and week units followed. */
  timezone: string;
}

/**
 * Moves an instant by a compact duration. Weeks and days keep the wall-clock time in the zone
 * (so "+1d" across spring-forward is 23 elapsed hours); hours, minutes and seconds add exact
 * elapsed time. Calendar units apply first, then exact ones. A wall time that falls into a DST
 * gap moves forward by the gap; an ambiguous one takes the earlier instant.
 *
 * Zone: `timezone` if given, else the configured default, else the input's own fixed offset
 * (which has no DST, so "+1d" is then exactly 24 hours).
 *
 * @example
 * adjustTimestamp(deps, { datetime: '2026-03-08T01:00:00-05:00', adjustment: '+1d', timezone: 'America/New_York' })
 *   .adjusted_local; // '2026-03-09T01:00:00-04:00'
 */
export function adjustTimestamp(
  deps: TimeDeps,
  input: { datetime: string; adjustment: string; timezone?: string | undefined },
): AdjustedTimestamp {
  const original = parseInstant(input.datetime, 'datetime');
  const duration = parseCompactDuration(input.adjustment);
  const zoneName = input.timezone ?? deps.defaultTimezone;
  const start = zoneName === undefined ? original : original.setZone(requireZone(zoneName, 'timezone'));
  const calendar = { weeks: duration.sign * duration.weeks, days: duration.sign * duration.days };
  const adjusted = start.plus(calendar).plus({ milliseconds: duration.sign * duration.exactMs });
  if (!adjusted.isValid || adjusted.year < 1 || adjusted.year > 9999) {
    throw new DomainError(
      'OUT_OF_RANGE',
      'The adjusted time falls outside years 0001–9999. Use a smaller adjustment.',
    );
  }
  return {
    original: formatInstant(original),
    adjusted_utc: formatUtc(adjusted),
    adjusted_local: formatInstant(adjusted),
    adjustment_applied: duration.canonical,
    timezone: adjusted.zone.name,
  };
}
