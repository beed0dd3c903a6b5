import type { EventDraft } from '../calendar/event.js';
import { DomainError } from '../errors.js';
import { type BookingStep, type BookingSteps, ConditionFailedError } from '../ports/index.js';
import { compensate } from './booking-compensation.js';
import {
  type BookingParts,
  type BookingStepsDeps,
  bookingParts,
  bookingResultOf,
  fencingMarginMs,
  recordInShadow,
  slotOf,
  zoneOf,
} from './booking-parts.js';
import {
  BookingInput,
  BookingResult,
  LockOutput,
  ReleaseState,
  VerifyState,
  WriteOutput,
  WriteState,
} from './booking-schemas.js';
import { providerConflict, slotTakenByEvent, slotTakenByShadow } from './slot-conflicts.js';
import { BookingStepError, STEP_ERROR, toStepError } from './step-errors.js';

/**
 * The work of the booking workflow's task states, as plain async functions over JSON. On AWS each
 * is a Lambda (lambdas/handlers/booking-steps.ts); in the embedded runtime each is the local
 * handler of its state. Every step validates its input and output (zod) and throws only
 * {@link BookingStepError}s, whose names booking.asl.json retries or catches.
 *
 * @example
 * const steps = createBookingSteps({ store, clock, random, pause, calendars, shadow, lockTtlMs: 30_000, defaultTimezone });
 * const lock = await steps.lock(input);
 */
export function createBookingSteps(deps: BookingStepsDeps): BookingSteps {
  const parts = bookingParts(deps);
  const guard =
    (name: string, run: (input: unknown) => Promise<unknown>): BookingStep =>
    async (input) => {
      try {
        return await run(input);
      } catch (error) {
        const stepError = toStepError(error);
        if (stepError.name === STEP_ERROR.internal)
          deps.logger?.error('booking step failed', { step: name, error });
        throw stepError;
      }
    };
  return {
    lock: guard('lock', (input) => lock(parts, input)),
    verify: guard('verify', (input) => verify(parts, input)),
    write: guard('write', (input) => write(parts, input)),
    release: guard('release', (input) => release(parts, input)),
    compensate: guard('compensate', (input) => compensate(parts, input)),
  };
}

/** Claims the idempotency key, then takes a hold on the slot — or finds the booking already made. */
async function lock({ deps, locks, idempotency }: BookingParts, raw: unknown): Promise<LockOutput> {
  const input = BookingInput.parse(raw);
  const claim = await idempotency.claim(input);
  if (claim.kind === 'replay') {
    return LockOutput.parse({
      outcome: 'replay',
      booking: { ...claim.booking, idempotent_replay: true },
      ...(claim.hold ? { hold: claim.hold } : {}),
    });
  }
  const zone = zoneOf(input.calendar, deps.defaultTimezone);
  const hold = await locks.acquire(input.calendar.calendar_id, input.booking_id, slotOf(input), zone);
  return LockOutput.parse({ outcome: 'acquired', hold });
}

/** Checks the slot against other holds, the shadow calendar and the live provider. */
async function verify({ deps, locks }: BookingParts, raw: unknown): Promise<Record<string, never>> {
  const input = VerifyState.parse(raw);
  const calendarId = input.calendar.calendar_id;
  const slot = slotOf(input);
  const zone = zoneOf(input.calendar, deps.defaultTimezone);
  if (!(await locks.isHeld(calendarId, input.lock.hold))) throw holdLost();

  // An `incomplete` shadow answer is used as it is: the live read below expands from the slot's
  // own start, so a dense series that overlaps the slot is found there.
  const { intervals } = await deps.shadow.busyIntervals(calendarId, slot.start_ms, slot.end_ms);
  const [busy] = intervals.filter((b) => b.start < slot.end_ms && slot.start_ms < b.end);
  if (busy) throw slotTakenByShadow(busy, zone, calendarId);

  const { provider, ref } = await deps.calendars.providerFor(input.calendar);
  const conflict = await providerConflict(provider, ref, zone, slot, input);
  if (conflict) throw slotTakenByEvent(conflict, zone, calendarId);
  return {};
}

/**
 * Creates the event while the hold is in force, fenced on both sides: before the write the hold
 * must have the fencing margin left, after it the hold must still be there. Only then is the
 * booking committed in the idempotency record. From the provider write on, nothing is
 * `TransientError` (a retry would create a second event): a failure names the created event so
 * that compensation removes it.
 */
async function write({ deps, locks, idempotency }: BookingParts, raw: unknown): Promise<WriteOutput> {
  const input = WriteState.parse(raw);
  const calendarId = input.calendar.calendar_id;
  const { hold } = input.lock;
  if (!(await locks.isHeld(calendarId, hold, fencingMarginMs(deps.lockTtlMs)))) throw holdLost();

  const { provider, ref } = await deps.calendars.providerFor(input.calendar);
  const zone = zoneOf(input.calendar, deps.defaultTimezone);
  let eventId: string;
  try {
    eventId = (await provider.createEvent(ref, draftOf(input))).id;
  } catch (error) {
    throw providerWriteFailed(error);
  }

  const booking = bookingResultOf(input, eventId, zone);
  try {
    if (!(await locks.isHeld(calendarId, hold))) throw holdLost({ created_event_id: eventId });
    await idempotency.markWritten(input, booking, hold);
  } catch (error) {
    if (error instanceof BookingStepError) throw error;
    if (error instanceof ConditionFailedError) throw holdLost({ created_event_id: eventId });
    throw new BookingStepError(STEP_ERROR.unconfirmedWrite, {
      code: 'INTERNAL',
      message: `the booking of event ${eventId} could not be committed: ${(error as Error).message}`,
      details: { created_event_id: eventId },
    });
  }
  return WriteOutput.parse({ booking });
}

/**
 * Records the booking in the shadow calendar, releases the hold (leaving a short-lived booked entry
 * on the lock item) and marks the booking completed.
 */
async function release({ deps, locks, idempotency }: BookingParts, raw: unknown): Promise<BookingResult> {
  const state = ReleaseState.parse(raw);
  const replay = state.lock.outcome === 'replay';
  const booking =
    state.written?.booking ?? (state.lock.outcome === 'replay' ? state.lock.booking : undefined);
  if (!booking) throw new Error('Release reached without a written booking');
  const calendarId = state.calendar.calendar_id;

  await recordInShadow(deps.shadow, calendarId, booking);
  if (state.lock.hold) {
    await locks.release(calendarId, state.lock.hold, {
      event_id: booking.event_id,
      summary: booking.summary,
    });
  }
  const record = await idempotency.find(state.idempotency_key);
  if (record && record.owner === booking.booking_id) await idempotency.markCompleted(record);
  return BookingResult.parse({ ...booking, idempotent_replay: replay });
}

function draftOf(input: WriteState): EventDraft {
  const zone = input.calendar.time_zone;
  const time = (instant: string) => (zone ? { date_time: instant, time_zone: zone } : { date_time: instant });
  return {
    summary: input.summary,
    ...(input.description ? { description: input.description } : {}),
    start: time(input.start),
    end: time(input.end),
    ...(input.attendees?.length
      ? { attendees: input.attendees.map((email) => ({ email, response_status: 'needsAction' as const })) }
      : {}),
  };
}

function holdLost(details: Record<string, unknown> = {}): BookingStepError {
  return new BookingStepError(STEP_ERROR.lockContended, {
    code: 'LOCK_CONTENDED',
    message:
      'The booking took longer than its lock allows (LOCK_TTL_SECS), so it was abandoned; nothing was booked. ' +
      'Retry: the slot is checked again.',
    details: { retry_after_seconds: 1, ...details },
  });
}

function providerWriteFailed(error: unknown): BookingStepError {
  // The adapters retry their own transient failures; what reaches here is final for this call.
  if (error instanceof DomainError) return toStepError(error);
  return new BookingStepError(STEP_ERROR.provider, {
    code: 'PROVIDER_ERROR',
    message: `The calendar provider did not confirm the new event (${(error as Error).message ?? error}). Nothing was booked; retry in a minute.`,
    details: {},
  });
}
