import { z } from 'zod';
import { calendarIdString, emailAddress, rfc3339 } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';

export const bookSlotTool = defineTool({
  name: 'book_slot',
  title: 'Book a slot (conflict-free)',
  description:
    'Books an event in a time slot safely: it locks the slot on the calendar, checks it against the live ' +
    'calendar and other bookings in progress, creates the event, then releases the lock. Of concurrent ' +
    'bookings of overlapping slots exactly one succeeds. Needs write access to the calendar. Pass ' +
    'idempotency_key so that a retry returns the first booking instead of booking twice (without one, the ' +
    'same parameters count as the same booking). Errors: SLOT_TAKEN (details.conflict names the event in ' +
    'the way: pick another slot, e.g. with find_free_time), LOCK_CONTENDED (another booking holds an ' +
    'overlapping slot: retry after details.retry_after_seconds), PROVIDER_ERROR (the calendar service ' +
    'failed; nothing was booked: retry later), CONTENT_REJECTED (change the summary or description).',
  input: z.object({
    calendar_id: calendarIdString().describe('Calendar to book in, from list_calendars (e.g. "native/…").'),
    start: rfc3339('start of the slot'),
    end: rfc3339('end of the slot (after start, at most 7 days later)'),
    summary: z.string().min(1).max(1024).describe('Event title.'),
    description: z.string().max(8192).optional().describe('Event description (plain text).'),
    attendees: z.array(emailAddress).max(200).optional().describe('Attendee email addresses.'),
    idempotency_key: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe('Any string unique to this booking; a retry with the same key returns the first booking.'),
  }),
  output: z.object({
    success: z.literal(true),
    event_id: z.string().describe('The created event, for get_event / update_event.'),
    booking_id: z.string().describe('This booking (the first one, on a replay).'),
    calendar_id: z.string(),
    summary: z.string(),
    start: z.string().describe('RFC 3339 in the calendar’s zone.'),
    end: z.string(),
    idempotent_replay: z
      .boolean()
      .describe('true when this answer repeats an earlier booking of the same key.'),
  }),
  // Per the reference: it creates an event (not read-only), never overwrites one (not destructive),
  // and a call without idempotency_key repeated with other parameters books again (not idempotent).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async (deps, input, { principal }) => {
    // The content firewall's checkEventContent plugs into BookingService (its `checkEventContent`
    // dependency, where the CONTENT FIREWALL HOOK comment is): it runs before anything is locked.
    const booking = await deps.booking.book(principal, input);
    return {
      success: true as const,
      event_id: booking.event_id,
      booking_id: booking.booking_id,
      calendar_id: booking.calendar_id,
      summary: booking.summary,
      start: booking.start,
      end: booking.end,
      idempotent_replay: booking.idempotent_replay,
    };
  },
});
