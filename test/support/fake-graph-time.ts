import { DateTime, IANAZone } from 'luxon';

/**
 * Graph's `dateTimeTimeZone` for the fake Graph: a wall-clock `dateTime` without offset
 * (`2026-03-10T14:00:00.0000000`) and a zone name, Windows (`Eastern Standard Time`) or IANA.
 * A handful of Windows names are enough here; the adapter's own mapping is tested elsewhere.
 */

export interface GraphTime {
  dateTime: string;
  timeZone: string;
}

const WINDOWS_ZONES: Record<string, string> = {
  UTC: 'UTC',
  'Eastern Standard Time': 'America/New_York',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Central Standard Time': 'America/Chicago',
  'W. Europe Standard Time': 'Europe/Berlin',
  'Romance Standard Time': 'Europe/Paris',
  'GMT Standard Time': 'Europe/London',
  'Tokyo Standard Time': 'Asia/Tokyo',
};

/** The IANA zone for a Graph zone name; undefined when the fake does not know it (Graph answers 400). */
export function ianaZone(name: string): string | undefined {
  if (WINDOWS_ZONES[name]) return WINDOWS_ZONES[name];
  return IANAZone.isValidZone(name) ? name : undefined;
}

/** Epoch ms of a Graph time (its wall clock read in its zone). */
export function graphTimeMs(time: GraphTime): number {
  const zone = ianaZone(time.timeZone) ?? 'UTC';
  return DateTime.fromISO(time.dateTime, { zone }).toMillis();
}

/**
 * An instant as Graph renders it in `zoneName` (the `Prefer: outlook.timezone` zone, UTC by default).
 *
 * @example
 * renderTime(Date.UTC(2026, 2, 10, 18), 'UTC'); // { dateTime: '2026-03-10T18:00:00.0000000', timeZone: 'UTC' }
 */
export function renderTime(ms: number, zoneName: string): GraphTime {
  const zone = ianaZone(zoneName) ?? 'UTC';
  const wall = DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
  return { dateTime: `${wall}.0000000`, timeZone: zoneName };
}

/** An instant as Graph writes `originalStart` and `createdDateTime` (DateTimeOffset, UTC). */
export function offsetString(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** The wall-clock date (YYYY-MM-DD) of an instant in a Graph zone. */
export function dateIn(ms: number, zoneName: string): string {
  return DateTime.fromMillis(ms, { zone: ianaZone(zoneName) ?? 'UTC' }).toISODate() ?? '';
}
