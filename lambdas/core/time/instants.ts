import { DateTime, FixedOffsetZone } from 'luxon';
import { DomainError } from '../errors.js';

// RFC 3339 §5.6 date-time: a full date, 'T' (or space/lowercase t), a time, and a mandatory offset.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 timestamp with an explicit offset, keeping that offset.
 * Throws INVALID_DATETIME saying what a valid value looks like.
 *
 * @example
 * parseInstant('2026-03-15T10:00:00-04:00', 'datetime').toUTC().hour; // 14
 */
export function parseInstant(text: string, field: string): DateTime<true> {
  const trimmed = text.trim();
  if (RFC3339.test(trimmed)) {
    const parsed = DateTime.fromISO(trimmed.replace(/[t ]/, 'T').replace(/z$/, 'Z'), { setZone: true });
    if (parsed.isValid) return parsed;
  }
  const hint = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(trimmed)
    ? ' It has no offset: append "Z" for UTC or an offset such as "-04:00".'
    : '';
  throw new DomainError(
    'INVALID_DATETIME',
    `"${field}" must be an RFC 3339 timestamp with an offset, such as "2026-03-15T14:00:00Z" or "2026-03-15T10:00:00-04:00"; got "${text}".${hint}`,
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
  const ms = dt.millisecond === 0 ? '' : `.${pad(dt.millisecond, 3)}`;
  return `${pad(dt.year, 4)}-${pad(dt.month)}-${pad(dt.day)}T${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}${ms}${formatOffset(dt.offset)}`;
}

/** The same instant expressed in UTC, formatted with `+00:00`. */
export function formatUtc(dt: DateTime): string {
  return formatInstant(dt.setZone(FixedOffsetZone.utcInstance));
}
