import { formatInstant } from '../time/instants.js';
import { DateTime } from '../time/luxon.js';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A span of time as availability answers give it: UTC, and the wall clock of one zone. */
export interface LocalSpan {
  /** UTC, e.g. "2026-03-02T14:00:00.000Z". */
  start: string;
  end: string;
  /** RFC 3339 in the answer's zone, e.g. "2026-03-02T09:00:00-05:00". */
  start_local: string;
  end_local: string;
  /** The local weekday of `start_local`, in English ("Monday"). */
  weekday: string;
}

/**
 * A span in UTC and on `zone`'s wall clock, with the weekday, so an agent never converts or
 * counts days itself. `zone` must already be a valid IANA name.
 *
 * @example
 * localSpan(Date.parse('2026-03-02T14:00:00Z'), Date.parse('2026-03-02T15:00:00Z'), 'America/New_York');
 * // { start: '2026-03-02T14:00:00.000Z', …, start_local: '2026-03-02T09:00:00-05:00', …, weekday: 'Monday' }
 */
export function localSpan(start: number, end: number, zone: string): LocalSpan {
  const localStart = DateTime.fromMillis(start, { zone });
  return {
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    start_local: formatInstant(localStart),
    end_local: formatInstant(DateTime.fromMillis(end, { zone })),
    weekday: WEEKDAYS[localStart.weekday - 1]!,
  };
}
