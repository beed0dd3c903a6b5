import * as z from 'zod';
import { slotTakenWithSuggestions } from '../../../core/availability/alternative-slots.js';
import { eventTimeInstant } from '../../../core/calendar/event-time.js';
import { isDomainError } from '../../../core/errors.js';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { calendarIdString, emailAddress } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { eventTimeInput, RequestedEventOutput, returnEventInput } from '../calendar/calendar-schemas.js';

export const bookSlotTool = defineTool({
  name: 'book_slot',
  title: 'Book a slot (conflict-free)',
  description:
    'Books an event in a slot without double-booking: of concurrent bookings of overlapping slots exactly ' +
    'one succeeds. A retry with the same idempotency_key returns the first booking. Errors: SLOT_TAKEN ' +
    '(error.suggestions: free slots of the same length), LOCK_CONTENDED (retry after ' +
    'error.retry_after_seconds), PROVIDER_ERROR (nothing booked).',
  input: z.object({
    calendar_id: calendarIdString().describe('Calendar to book in, from list_calendars (e.g. "native/…").'),
    start: eventTimeInput,
    end: eventTimeInput.describe(
      'End of the slot (after start, at most 7 days later), in the same forms as start.',
    ),
    summary: z.string().min(1).max(1024).describe('Event title.'),
    description: z.string().max(8192).optional().describe('Event description (plain text).'),
    attendees: z.array(emailAddress).max(200).optional().describe('Attendee email addresses.'),
    idempotency_key: idempotencyKeyField,
    return_event: returnEventInput,
  }),
  output: z.object({
    success: z.literal(true),
    event_id: z.string().describe('The created event, for get_event / update_event.'),
    etag: z.string().optional().describe("The event's version when booked, for update_event's if_match."),
    booking_id: z.string().describe('This booking (the first one, on a replay).'),
    calendar_id: z.string(),
    summary: z.string(),
    start: z.string().describe('RFC 3339 in the calendar’s zone.'),
    end: z.string(),
    idempotent_replay: z
      .boolean()
      .describe('true when this answer repeats an earlier booking of the same key.'),
    event: RequestedEventOutput,
  }),
  // Per the reference: it creates an event (not read-only), never overwrites one (not destructive),
  // and a call without idempotency_key repeated with other parameters books again (not idempotent).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  needs: 'booking',
  run: async (deps, input, { principal }) => {
    // The content firewall's checkEventContent plugs into BookingService (its `checkEventContent`
    // dependency, where the CONTENT FIREWALL HOOK comment is): it runs before anything is locked.
    const { return_event, ...params } = input;
    const booking = await deps.booking.book(principal, params).catch(async (error: unknown) => {
      if (!isDomainError(error, 'SLOT_TAKEN')) throw error;
      // The booking read these times in the calendar's zone; the suggestions read them the same way.
      const zone = deps.calendars.zoneOf(
        await deps.calendars.calendarFor(principal, input.calendar_id, 'write'),
      );
      throw await slotTakenWithSuggestions(deps, principal, error, {
        calendar_id: input.calendar_id,
        start: eventTimeInstant(input.start, zone, 'start').toMillis(),
        end: eventTimeInstant(input.end, zone, 'end').toMillis(),
        now: deps.clock.now().getTime(),
      });
    });
    return {
      success: true as const,
      event_id: booking.event_id,
      ...(booking.etag ? { etag: booking.etag } : {}),
      booking_id: booking.booking_id,
      calendar_id: booking.calendar_id,
      summary: booking.summary,
      start: booking.start,
      end: booking.end,
      idempotent_replay: booking.idempotent_replay,
      ...(return_event
        ? { event: await deps.calendars.getEvent(principal, booking.calendar_id, booking.event_id) }
        : {}),
    };
  },
});
