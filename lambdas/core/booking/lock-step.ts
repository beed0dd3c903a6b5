import { calendarZone } from '../calendar/calendar-zone.js';
import type { BookingParts } from './booking-parts.js';
import { slotOf } from './booking-parts.js';
import { BookingInput, LockOutput } from './booking-schemas.js';

/**
 * The Lock state: claims the idempotency key, then takes a hold on the slot — or finds the
 * booking already made. Reaches only the table (holds and idempotency records), never a provider.
 */
export async function lock({ deps, locks, idempotency }: BookingParts, raw: unknown): Promise<LockOutput> {
  const input = BookingInput.parse(raw);
  const calendarId = input.calendar.calendar_id;
  // The lock item is read while the key is claimed (one round trip instead of two); a replay
  // leaves the read unused.
  const lockItem = locks.prefetch(calendarId);
  const claim = await idempotency.claim(input);
  if (claim.kind === 'replay') {
    return LockOutput.parse({
      outcome: 'replay',
      booking: { ...claim.booking, idempotent_replay: true },
      ...(claim.hold ? { hold: claim.hold } : {}),
    });
  }
  const zone = calendarZone(input.calendar, deps.defaultTimezone);
  const hold = await locks.acquire(calendarId, input.booking_id, slotOf(input), zone, lockItem);
  return LockOutput.parse({ outcome: 'acquired', hold });
}
