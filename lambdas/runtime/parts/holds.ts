/**
 * What every booking step works with — holds, idempotency records, the steps' guard — one chunk
 * in a bundle (see booking.ts), with nothing of the calendars.
 */
export { IdempotencyRecords } from '../../core/booking/idempotency.js';
export { SlotLocks } from '../../core/booking/slot-locks.js';
export { bookingStepsOver } from '../booking-steps-over.js';
