import { calendarZone } from '../calendar/calendar-zone.js';
import type { EventDraft } from '../calendar/event.js';
import { DomainError } from '../errors.js';
import { ConditionFailedError } from '../ports/index.js';
import { formatInstant } from '../time/instants.js';
import { DateTime } from '../time/luxon.js';
import { type BookingParts, fencingMarginMs, slotOf } from './booking-parts.js';
import { type BookingInput, type BookingResult, WriteOutput, WriteState } from './booking-schemas.js';
import { BookingStepError, holdLost, STEP_ERROR, toStepError } from './step-errors.js';

/**
 * The Write state: creates the event while the hold is in force, fenced on both sides: before the
 * write the hold must have the fencing margin left, after it the hold must still be there. Only
 * then is the booking committed in the idempotency record. From the provider write on, nothing is
 * `TransientError` (a retry would create a second event): a failure names the created event so
 * that compensation removes it.
 */
export async function write({ deps, locks, idempotency }: BookingParts, raw: unknown): Promise<WriteOutput> {
  const input = WriteState.parse(raw);
  const calendarId = input.calendar.calendar_id;
  const { hold } = input.lock;
  // The provider is resolved (on a cold start: loaded) while the hold is checked.
  const resolved = deps.calendars.providerFor(input.calendar);
  resolved.catch(() => undefined);
  if (!(await locks.isHeld(calendarId, hold, fencingMarginMs(deps.lockTtlMs)))) throw holdLost();

  const { provider, ref } = await resolved;
  const zone = calendarZone(input.calendar, deps.defaultTimezone);
  let eventId: string;
  let etag: string;
  try {
    ({ id: eventId, etag } = await provider.createEvent(ref, draftOf(input)));
  } catch (error) {
    throw providerWriteFailed(error);
  }

  const booking = bookingResultOf(input, eventId, etag, zone);
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

/** The booking a caller gets back, times in the calendar's zone. */
function bookingResultOf(input: BookingInput, eventId: string, etag: string, zone: string): BookingResult {
  const { start_ms, end_ms } = slotOf(input);
  return {
    booking_id: input.booking_id,
    event_id: eventId,
    ...(etag ? { etag } : {}),
    calendar_id: input.calendar.calendar_id,
    summary: input.summary,
    start: formatInstant(DateTime.fromMillis(start_ms, { zone })),
    end: formatInstant(DateTime.fromMillis(end_ms, { zone })),
    idempotent_replay: false,
  };
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

function providerWriteFailed(error: unknown): BookingStepError {
  // The adapters retry their own transient failures; what reaches here is final for this call.
  if (error instanceof DomainError) return toStepError(error);
  return new BookingStepError(STEP_ERROR.provider, {
    code: 'PROVIDER_ERROR',
    message: `The calendar provider did not confirm the new event (${(error as Error).message ?? error}). Nothing was booked; retry in a minute.`,
    details: {},
  });
}
