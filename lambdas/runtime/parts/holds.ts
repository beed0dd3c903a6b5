/**
 * What every booking step works with — holds, idempotency records, the steps' guard — loaded
 * together by the first step (see booking.ts), with nothing of the calendars. The `locks` and
 * `idempotency` parts import their classes on their own, so that a read tool
 * (check_availability) or a keyed write loads neither the steps' code nor the other class; the
 * re-exports here keep both in the first step's one wave of chunks.
 */
export { IdempotencyRecords } from '../../core/booking/idempotency.js';
export { SlotLocks } from '../../core/booking/slot-locks.js';
export { bookingStepsOver } from '../booking-steps-over.js';
