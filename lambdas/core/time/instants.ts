import { DomainError } from '../errors.js';
import { echo } from '../input-limits.js';
import { DateTime, FixedOffsetZone } from './luxon.js';

// RFC 3339 §5.6 date-time: a full date, 'T' (or space/lowercase t), a time, and a mandatory offset.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The instants RFC 3339 can write: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z. */
export const MIN_INSTANT_MS = -62_135_596_800_000;
export const MAX_INSTANT_MS = 253_402_300_799_999;

/** UTC offsets in use run from -12:00 to +14:00; ±14:00 bounds both sides. */
export const MAX_OFFSET_MINUTES = 14 * 60;

/** "+05:45" → 345; "Z" → 0. Undefined for a minute part of 60 or more. */
function offsetMinutes(designator: string): number | undefined {
  if (designator === 'Z' || designator === 'z') return 0;
  const hours = Number(designator.slice(1, 3));
  const minutes = Number(designator.slice(4, 6));
  if (minutes > 59) return undefined;
  return (designator.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** True when epoch milliseconds `ms` is an instant RFC 3339 can write (years 0001–9999). */
export function isInstantInRange(ms: number): boolean {
  return ms >= MIN_INSTANT_MS && ms <= MAX_INSTANT_MS;
}

/**
 * `new Date(ms).toISOString()` for a query bound, moved into years 0001–9999 first. Bounds are
 * padded (slack, buffers, a day for long events) and may reach past the range although nothing
 * stored can; outside it toISOString writes "+010000-…", which no parser or sort key expects.
 *
 * @example
 * clampedIso(Date.UTC(10_000, 0, 1)); // '9999-12-31T23:59:59.999Z'
 */
export function clampedIso(ms: number): string {
  return new Date(Math.min(Math.max(ms, MIN_INSTANT_MS), MAX_INSTANT_MS)).toISOString();
}

/**
 * Refuses epoch milliseconds outside years 0001–9999 with OUT_OF_RANGE naming the caller's field.
 *
 * @example
 * requireInstantInRange(Date.parse('2026-03-15T14:00:00Z'), 'end'); // passes
 */
export function requireInstantInRange(ms: number, field: string): void {
  if (!isInstantInRange(ms)) {
    throw new DomainError(
      'OUT_OF_RANGE',
      `"${field}" falls outside years 0001–9999 (UTC), which RFC 3339 can express: choose an instant within them.`,
      { field },
    );
  }
}

/**
 * Parses an RFC 3339 timestamp with an explicit offset, keeping that offset.
 * Throws INVALID_DATETIME saying what a valid value looks like.
 *
 * @example
 * parseInstant('2026-03-15T10:00:00-04:00', 'datetime').toUTC().hour; // 14
 */
export function parseInstant(text: string, field: string): DateTime<true> {
  const trimmed = text.trim();
  const match = RFC3339.exec(trimmed);
  if (match) {
    const offset = offsetMinutes(match[2]!);
    if (offset === undefined || Math.abs(offset) > MAX_OFFSET_MINUTES) {
      throw new DomainError(
        'INVALID_DATETIME',
        `"${field}" has the UTC offset "${match[2]}", which does not exist: offsets run from -14:00 to +14:00 (minutes 00–59), e.g. "2026-03-15T10:00:00-04:00".`,
        { field },
      );
    }
    const parsed = DateTime.fromISO(trimmed.replace(/[t ]/, 'T').replace(/z$/, 'Z'), { setZone: true });
    if (parsed.isValid) {
      requireInstantInRange(parsed.toMillis(), field);
      return parsed;
    }
  }
  const hint = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(trimmed)
    ? ' It has no offset: append "Z" for UTC or an offset such as "-04:00".'
    : '';
  throw new DomainError(
    'INVALID_DATETIME',
    `"${field}" must be an RFC 3339 timestamp with an offset, such as "2026-03-15T14:00:00Z" or "2026-03-15T10:00:00-04:00"; got ${echo(text)}.${hint}`,
    { field },
  );
}

function pad(value: number, width = 2): string {
  return String(Math.abs(value)).padStart(width, '0');
}

/**
 * "+05:45", "-04:00", "+00:00" for an offset in minutes. A few zones had offsets with seconds
 * in their local-mean-time era (Africa/Monrovia was -00:44:30 until 1972): those get ":SS".
 */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const totalSeconds = Math.round(Math.abs(offsetMinutes) * 60);
  const seconds = totalSeconds % 60;
  const hhmm = `${sign}${pad(Math.floor(totalSeconds / 3600))}:${pad(Math.floor(totalSeconds / 60) % 60)}`;
  return seconds === 0 ? hhmm : `${hhmm}:${pad(seconds)}`;
}

/**
 * RFC 3339 with a numeric offset (never "Z", so every timestamp reads the same way) and
 * milliseconds only when they are not zero. Offsets are whole minutes (see below).
 * Throws OUT_OF_RANGE when the wall clock falls outside years 0001–9999: every result a tool
 * returns is formatted here, so an instant that would leave the range fails with a code there.
 *
 * @example
 * formatInstant(DateTime.fromISO('2026-03-15T14:00:00Z', { zone: 'utc' })); // '2026-03-15T14:00:00+00:00'
 */
export function formatInstant(instant: DateTime): string {
  // RFC 3339 offsets have no seconds. For an offset such as -00:44:30 the timestamp is written
  // with the offset rounded to whole minutes (and the wall clock to match, as formatWithOffset does in
  // recurrence/wall-clock-text.ts), so it still names
  // the exact instant; utc_offset reports the true offset.
  const dt = Number.isInteger(instant.offset)
    ? instant
    : instant.setZone(FixedOffsetZone.instance(Math.round(instant.offset)));
  if (!dt.isValid || dt.year < 1 || dt.year > 9999) {
    throw new DomainError(
      'OUT_OF_RANGE',
      'The result falls outside years 0001–9999, which RFC 3339 can express: use instants further from those bounds.',
    );
  }
  const ms = dt.millisecond === 0 ? '' : `.${pad(dt.millisecond, 3)}`;
  return `${pad(dt.year, 4)}-${pad(dt.month)}-${pad(dt.day)}T${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}${ms}${formatOffset(dt.offset)}`;
}

/** The same instant expressed in UTC, formatted with `+00:00`. */
export function formatUtc(dt: DateTime): string {
  return formatInstant(dt.setZone(FixedOffsetZone.utcInstance));
}
