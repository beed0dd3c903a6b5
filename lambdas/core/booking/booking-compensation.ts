import { isDomainError } from '../errors.js';
import type { BookingParts } from './booking-parts.js';
import { type CompensateOutput, CompensateState } from './booking-schemas.js';
import { recordInShadow } from './record-in-shadow.js';
import { decodeFailure } from './step-errors.js';

/**
 * The Catch path of every task state. The idempotency record decides: if it says the booking was
 * written (the commit point), the booking exists — the failure came later, e.g. in Release — so
 * compensation finishes the release and the workflow still answers with the booking. Otherwise
 * nothing may remain: an event the failed step created is deleted, the hold is dropped, the pending
 * claim is forgotten (so a retry runs afresh), and the workflow fails with the failure's code.
 */
export async function compensate(
  { deps, locks, idempotency }: BookingParts,
  raw: unknown,
): Promise<CompensateOutput> {
  const state = CompensateState.parse(raw);
  const failure = decodeFailure(state.failure.Error, state.failure.Cause);
  const calendarId = state.calendar.calendar_id;
  // On the replay path the record belongs to the earlier call that made the booking.
  const owner = state.lock?.outcome === 'replay' ? state.lock.booking.booking_id : state.booking_id;

  // Whichever way the record decides, a hold of this calendar is released: its lock item is
  // read while the record is.
  const lockItem = state.lock ? locks.prefetch(calendarId) : undefined;
  // A failure in Lock leaves at most a pending claim of ours: nothing can have been committed.
  const record = state.lock ? await idempotency.find(state.idempotency_key) : undefined;
  if (record && record.owner === owner && record.status !== 'pending' && record.booking) {
    await recordInShadow(deps.shadow, calendarId, record.booking);
    if (record.hold) {
      await locks.release(
        calendarId,
        record.hold,
        { event_id: record.booking.event_id, summary: record.booking.summary },
        lockItem,
      );
    }
    await idempotency.markCompleted(record);
    return {
      outcome: 'booked',
      booking: { ...record.booking, idempotent_replay: state.lock?.outcome === 'replay' },
    };
  }

  const { created_event_id: createdEventId, ...details } = failure.details;
  if (typeof createdEventId === 'string') {
    const { provider, ref } = await deps.calendars.providerFor(state.calendar);
    try {
      await provider.deleteEvent(ref, createdEventId, { scope: 'this' });
    } catch (error) {
      if (!isDomainError(error, 'NOT_FOUND')) throw error;
    }
  }
  // The hold and the pending claim are dropped together: a retry that finds the claim gone
  // before the hold meets LOCK_CONTENDED, as it would while the hold stood.
  await Promise.all([
    state.lock?.outcome === 'acquired'
      ? locks.release(calendarId, state.lock.hold, undefined, lockItem)
      : undefined,
    // Conditional on owner and status: a claim that is not ours, or not pending, stays as it is.
    !state.lock || record?.owner === state.booking_id
      ? idempotency.clear(state.idempotency_key, state.booking_id)
      : undefined,
  ]);

  const payload = { ...failure, details };
  return { outcome: 'failed', error: payload.code, cause: JSON.stringify(payload) };
}
