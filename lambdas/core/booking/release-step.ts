import type { BookingParts } from './booking-parts.js';
import { BookingResult, ReleaseState } from './booking-schemas.js';
import { recordInShadow } from './record-in-shadow.js';

/**
 * The Release state: records the booking in the shadow calendar, releases the hold (leaving a
 * short-lived booked entry on the lock item) and marks the booking completed.
 */
export async function release(
  { deps, locks, idempotency }: BookingParts,
  raw: unknown,
): Promise<BookingResult> {
  const state = ReleaseState.parse(raw);
  const replay = state.lock.outcome === 'replay';
  const booking =
    state.written?.booking ?? (state.lock.outcome === 'replay' ? state.lock.booking : undefined);
  if (!booking) throw new Error('Release reached without a written booking');
  const calendarId = state.calendar.calendar_id;

  await recordInShadow(deps.shadow, calendarId, booking);
  // The record is read while the hold is released; it is marked completed only after, so that
  // a failed release leaves the hold in the record for compensation to release.
  const record = idempotency.find(state.idempotency_key);
  record.catch(() => undefined);
  if (state.lock.hold) {
    await locks.release(calendarId, state.lock.hold, {
      event_id: booking.event_id,
      summary: booking.summary,
    });
  }
  const found = await record;
  if (found && found.owner === booking.booking_id) await idempotency.markCompleted(found);
  return BookingResult.parse({ ...booking, idempotent_replay: replay });
}
