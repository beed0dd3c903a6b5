import * as z from 'zod';
import { CalendarRecord } from '../calendar/calendar-registry.js';

/**
 * The payloads that travel between the states of the booking workflow (lambdas/booking/booking.asl.json).
 * Every step validates what it reads with these schemas and every step's output is validated before it
 * leaves, so a malformed payload fails at the edge where it appears — on AWS each edge is a Lambda
 * invocation whose JSON nobody else checks. Field names are snake_case like the rest of the contract.
 */

/** One active claim on an interval of one calendar: who holds it, its fencing token, until when. */
export const Hold = z.object({
  /** The booking that holds it (its booking_id). */
  owner: z.string().min(1),
  /** The calendar's fence counter at acquisition: strictly increasing per calendar. */
  token: z.number().int().positive(),
  start_ms: z.number().int(),
  end_ms: z.number().int(),
  /** Epoch ms after which the hold is void, whatever the item still says. */
  expires_at_ms: z.number().int(),
  /**
   * Set when the booking was made and the hold released: the entry then stands for the new event
   * until `expires_at_ms`, so that a booker right after sees it even before the provider's listing
   * (an eventually consistent index, a remote API) shows the event.
   */
  booked: z.object({ event_id: z.string(), summary: z.string() }).optional(),
});
export type Hold = z.infer<typeof Hold>;

/** What the workflow is started with; the MCP tool builds it after checking the caller's grant. */
export const BookingInput = z.object({
  /** Fresh per call; the lock owner and, on success, the id the caller gets back. */
  booking_id: z.string().min(1),
  /** The stored idempotency key (already scoped to the principal and hashed). */
  idempotency_key: z.string().min(1),
  /** Hash of the booking's parameters; a reused key with other parameters is refused. */
  request_hash: z.string().min(1),
  /** Who booked, for the record (never a secret). */
  principal: z.string().min(1),
  calendar: CalendarRecord,
  start: z.string().min(1),
  end: z.string().min(1),
  summary: z.string().min(1).max(1024),
  description: z.string().max(8192).optional(),
  attendees: z.array(z.string().email()).max(200).optional(),
});
export type BookingInput = z.infer<typeof BookingInput>;

/** What a successful book_slot returns (and what a replay returns again). */
export const BookingResult = z.object({
  booking_id: z.string(),
  event_id: z.string(),
  /** The event's version as the provider wrote it (a replay gives the first booking's). */
  etag: z.string().optional(),
  calendar_id: z.string(),
  summary: z.string(),
  /** RFC 3339 in the calendar's zone. */
  start: z.string(),
  end: z.string(),
  idempotent_replay: z.boolean(),
});
export type BookingResult = z.infer<typeof BookingResult>;

/** Lock's output when it took a fresh hold. */
export const AcquiredLock = z.object({ outcome: z.literal('acquired'), hold: Hold });

/** Output of Lock: a fresh hold, or the booking an earlier call with the same key already made. */
export const LockOutput = z.discriminatedUnion('outcome', [
  AcquiredLock,
  z.object({
    outcome: z.literal('replay'),
    booking: BookingResult,
    /** The hold the earlier call left behind when it died before releasing, to be released now. */
    hold: Hold.optional(),
  }),
]);
export type LockOutput = z.infer<typeof LockOutput>;

/** Output of Write: the booking, committed in the idempotency record. */
export const WriteOutput = z.object({ booking: BookingResult });
export type WriteOutput = z.infer<typeof WriteOutput>;

/** What a Catch puts at `$.failure`: Step Functions' error name and cause. */
export const StepFailure = z.object({ Error: z.string(), Cause: z.string().optional() });
export type StepFailure = z.infer<typeof StepFailure>;

/** The state each step sees: the input plus what earlier steps added (absent when they did not run). */
export const VerifyState = BookingInput.extend({ lock: AcquiredLock });
export type VerifyState = z.infer<typeof VerifyState>;
export const WriteState = VerifyState;
export type WriteState = VerifyState;
export const ReleaseState = BookingInput.extend({ lock: LockOutput, written: WriteOutput.optional() });
export const CompensateState = BookingInput.extend({
  lock: LockOutput.optional(),
  written: WriteOutput.optional(),
  failure: StepFailure,
});

/**
 * Output of Compensate: either the booking exists after all (it was committed before the failure,
 * e.g. Release failed), or the workflow fails with a stable error code and a JSON cause.
 */
export const CompensateOutput = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('booked'), booking: BookingResult }),
  z.object({ outcome: z.literal('failed'), error: z.string().min(1), cause: z.string() }),
]);
export type CompensateOutput = z.infer<typeof CompensateOutput>;
