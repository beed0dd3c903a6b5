import { DomainError } from '../../errors.js';
import { formatOffset } from '../instants.js';

/**
 * Wall-clock times are carried as "wall milliseconds": the epoch milliseconds of the same
 * calendar fields read as UTC (2026-03-01T09:00 local → Date.UTC(2026, 2, 1, 9)). That is the
 * "floating" space rrule computes in, and it never depends on the host's TZ.
 */
export type WallMs = number;

// A local date-time as an agent writes it: no offset, seconds optional, 'T' or a space.
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2}))?$/;

function localHint(text: string): string {
  if (/([Zz]|[+-]\d{2}:?\d{2})$/.test(text)) {
    return ' It carries an offset: drop the "Z"/offset, the time zone comes from "timezone".';
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return ' It has no time: add one, e.g. "T09:00:00".';
  return '';
}

/**
 * Parses a local date-time ("2026-03-01T09:00:00", seconds optional, no offset) into wall
 * milliseconds. Throws INVALID_DATETIME naming `field` and showing the expected shape.
 *
 * @example
 * parseWallClock('2026-03-01T09:00', 'dtstart') === Date.UTC(2026, 2, 1, 9); // true
 */
export function parseWallClock(text: string, field: string): WallMs {
  const trimmed = text.trim();
  const match = LOCAL_DATE_TIME.exec(trimmed);
  if (match) {
    const [year, month, day, hour, minute, second] = match
      .slice(1)
      .map((part) => Number(part ?? 0)) as number[];
    const date = new Date(0);
    // setUTCFullYear, unlike Date.UTC, does not turn years 0–99 into 1900–1999.
    date.setUTCFullYear(year!, month! - 1, day!);
    date.setUTCHours(hour!, minute!, second!, 0);
    const roundTrips =
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === month! - 1 &&
      date.getUTCDate() === day &&
      date.getUTCHours() === hour &&
      date.getUTCMinutes() === minute &&
      date.getUTCSeconds() === second;
    if (roundTrips) return date.getTime();
  }
  throw new DomainError(
    'INVALID_DATETIME',
    `"${field}" must be a local date-time without offset, such as "2026-03-01T09:00:00" (seconds optional); got "${text}".${localHint(trimmed)}`,
    { field },
  );
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/**
 * Year, month (1–12) and day of a count of days since 1970-01-01, by Howard Hinnant's
 * `civil_from_days` (proleptic Gregorian, as Date uses).
 */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153); // March = 0
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/**
 * "YYYY-MM-DDTHH:mm:ss" (plus ".SSS" when milliseconds are not zero) for wall or epoch
 * milliseconds, matching `formatInstant` in ../instants.ts. Written out by hand, without a Date
 * or luxon DateTime per call (OUT_OF_RANGE outside years 0001–9999), because it runs three times per instance: with Date getters it
 * took ~0.7 µs a call, a quarter of a 720-instance expansion (bench/expand-rrule.bench.ts).
 *
 * @example
 * formatWallClock(Date.UTC(2026, 2, 1, 9)); // '2026-03-01T09:00:00'
 */
export function formatWallClock(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const [year, month, day] = civilFromDays(days);
  if (year < 1 || year > 9999) {
    // An instance (or its end) past what RFC 3339 can write: an error with a code, as formatInstant.
    throw new DomainError(
      'OUT_OF_RANGE',
      'The result falls outside years 0001–9999, which RFC 3339 can express: use instants further from those bounds.',
    );
  }
  const ofDay = ms - days * DAY_MS;
  const seconds = Math.floor(ofDay / 1000);
  const millis = ofDay - seconds * 1000;
  const time = `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
  const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0')}`;
  return `${String(Math.abs(year)).padStart(4, '0')}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${time}${fraction}`;
}

/**
 * Epoch milliseconds as RFC 3339 in UTC with "+00:00", the same text as `formatUtc` in
 * ../instants.ts but without building a luxon DateTime per instance.
 *
 * @example
 * formatUtcMs(Date.UTC(2026, 2, 2, 14)); // '2026-03-02T14:00:00+00:00'
 */
export function formatUtcMs(epochMs: number): string {
  return `${formatWallClock(epochMs)}+00:00`;
}

/**
 * An instant as RFC 3339 in the zone whose offset at that instant is `offsetMs`. Offsets with
 * seconds (local mean time before ~1900) are rounded to the minute, as RFC 3339 requires, and
 * the wall clock is shifted to match so the text still names the exact instant.
 *
 * @example
 * formatWithOffset(Date.UTC(2026, 2, 8, 7, 30), -4 * 3_600_000); // '2026-03-08T03:30:00-04:00'
 */
export function formatWithOffset(epochMs: number, offsetMs: number): string {
  const offsetMinutes = Math.round(offsetMs / 60_000);
  return `${formatWallClock(epochMs + offsetMinutes * 60_000)}${formatOffset(offsetMinutes)}`;
}
