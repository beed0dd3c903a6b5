import type { CalendarRecord } from './calendar-registry.js';

/**
 * The zone a time without an offset is read in, and times are shown in, when no calendar says:
 * the server's default (MERIDIAN_TIMEZONE, `defaultTimezone` in the deps), else UTC. Imports
 * nothing, so that a cold start's first call pays nothing for it.
 *
 * @example
 * serverZone(undefined); // 'UTC'
 */
export function serverZone(defaultTimezone: string | undefined): string {
  return defaultTimezone ?? 'UTC';
}

/**
 * The zone of one calendar: its own `time_zone`, else {@link serverZone}.
 *
 * @example
 * calendarZone({ ...record, time_zone: undefined }, 'Europe/Paris'); // 'Europe/Paris'
 */
export function calendarZone(
  calendar: Pick<CalendarRecord, 'time_zone'>,
  defaultTimezone: string | undefined,
): string {
  return calendar.time_zone ?? serverZone(defaultTimezone);
}
