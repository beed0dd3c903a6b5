import { DomainError } from '../../errors.js';
import { DateTime } from '../luxon.js';
import type { ResolveContext } from './resolve-context.js';
import { wallClockInZone } from './wall-clock.js';

// ISO 8601 extended calendar dates, optionally with a time, and with an offset only after a time.
// Matched by hand before chrono: chrono's ISO parser reads offset-less values with host-local
// Date methods, while luxon parses the format exactly and we place wall times in the zone ourselves.
const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Reads an RFC 3339 / ISO 8601 timestamp or date, or returns null when `text` is not one.
 * - with an offset ("…Z", "…-04:00"): that exact instant, whatever the zone;
 * - a local date-time ("2026-03-15T09:00"): that wall time in the zone (DST rules as elsewhere);
 * - a date ("2026-03-15"): 00:00 on that day in the zone.
 *
 * @example
 * passthrough('2026-03-15', ctx)?.toISO(); // '2026-03-15T00:00:00.000-04:00' in America/New_York
 */
export function passthrough(text: string, ctx: ResolveContext): DateTime<true> | null {
  const match = ISO_DATE_TIME.exec(text);
  if (match === null) return null;
  const iso = text.toUpperCase().replace(' ', 'T').replace(',', '.');
  const parsed =
    match[1] !== undefined
      ? DateTime.fromISO(iso, { setZone: true })
      : DateTime.fromISO(iso, { zone: 'utc' });
  if (!parsed.isValid) {
    throw new DomainError(
      'INVALID_DATETIME',
      `"${text}" looks like an ISO 8601 date but is not a real one (${parsed.invalidExplanation ?? parsed.invalidReason}). Check the month, day and time.`,
      { field: 'expression' },
    );
  }
  return match[1] !== undefined ? parsed : wallClockInZone(parsed, ctx.zone);
}
