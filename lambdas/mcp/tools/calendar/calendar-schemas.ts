import * as z from 'zod';
import type { AttendeeInput } from '../../../core/calendar/attendee-responses.js';
import {
  CalendarEvent,
  EditScope,
  EventStatus,
  Reminders,
  ResponseStatus,
  Transparency,
  Visibility,
} from '../../../core/calendar/event.js';
import { EventTimeInput } from '../../../core/calendar/event-time.js';
import type { EventView } from '../../../core/calendar/event-view.js';
import { MAX_RECURRENCE_LINE_LENGTH, MAX_TOKEN_LENGTH } from '../../../core/input-limits.js';
import { withHintExample } from '../../field-hints.js';
import { listedAs } from '../../lean-json-schema.js';
import {
  boundedString,
  calendarIdString,
  emailAddress,
  eventIdString,
  untrustedOutput,
} from '../../schemas.js';

/** Shared input and output pieces of the calendar tools, described once. */

export const calendarIdInput = calendarIdString().describe(
  'From list_calendars; omit for your primary calendar.',
);

export const eventIdInput = eventIdString().describe(
  "From list_events; an occurrence's is <series id>_<start>.",
);

/**
 * Listed as a string or an object whose fields the description names: the exact union (an object
 * of date_time and time_zone, or one of date) would spell its branches out in start and end of
 * every event tool. The server checks the exact form, and INVALID_INPUT names what to send.
 */
const EVENT_TIME_LISTED = { anyOf: [{ type: 'string' }, { type: 'object' }] };

export const eventTimeInput = listedAs(
  withHintExample(EventTimeInput, '2026-11-26T09:00:00Z'),
  EVENT_TIME_LISTED,
).describe(
  'ISO date-time, date (all day), {date_time, time_zone?} or {date}; no offset: read in time_zone, else the calendar zone.',
);

/** An attendee with more than an address: a name, an answer, optional attendance. */
const AttendeeObject = z.object({
  email: emailAddress,
  name: z.string().max(256).optional(),
  response: ResponseStatus.optional(),
  optional: z.boolean().optional(),
});

/**
 * Listed as an array whose items the description names (emails or objects), as event times are:
 * the exact union would spell the object out again in every event tool, and update_event is at
 * its listing ceiling. The server checks the exact form, and INVALID_INPUT names what to send.
 */
const ATTENDEES_LISTED = { type: 'array' };

export const attendeesInput = listedAs(
  z.array(z.union([emailAddress, AttendeeObject])).max(200),
  ATTENDEES_LISTED,
).describe(
  'Emails or {email, name?, response?, optional?}; on update the whole list, a bare email keeping its response.',
);

export const scopeInput = EditScope.default('this').describe(
  'For an occurrence of a series; following splits the series.',
);

export const ifMatchInput = boundedString(MAX_TOKEN_LENGTH).describe(
  'The etag you read; STALE_WRITE if the event changed since.',
);

/** Editable event fields, all optional (a patch), in tool form: attendees as emails. */
export const eventFieldsInput = {
  summary: z.string().min(1).max(1024).describe('Title.'),
  description: z.string().max(8192).describe('Plain text.'),
  location: z.string().max(1024).describe('Location.'),
  start: eventTimeInput,
  end: eventTimeInput.describe('As start; an all-day end is exclusive.'),
  // The enums name the values; only what they do not say is described.
  status: EventStatus,
  transparency: Transparency.describe('transparent: the time shows as free.'),
  visibility: Visibility,
  attendees: attendeesInput,
  reminders: Reminders.describe('use_default false and no overrides: silent.'),
  color_id: withHintExample(z.string(), '5')
    .regex(/^([1-9]|1[01])$/)
    .describe('Color id 1–11.'),
  recurrence: withHintExample(z.array(z.string().max(MAX_RECURRENCE_LINE_LENGTH)), [
    'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10',
  ])
    .max(20)
    .describe('RFC 5545 lines (RRULE:…, EXDATE:…).'),
};

export const EventViewOutput = CalendarEvent.extend({
  start_utc: z.string(),
  end_utc: z.string(),
  start_local: z.string(),
  end_local: z.string(),
  time_zone: z.string(),
  all_day: z.boolean(),
  untrusted: untrustedOutput,
});

export const WrittenEventOutput = z.object({ event_id: z.string(), event: EventViewOutput });

/** The one name every write tool uses to ask for the whole event back. */
export const returnEventInput = z.boolean().default(false).describe('true: also return the whole event.');

/**
 * The whole event in a write's answer, present only on request. Its shape is get_event's, and is
 * described there once: repeating that schema in every write tool's listing would cost an agent
 * about 900 tokens per tool for a field it rarely asks for.
 */
export const RequestedEventOutput = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('With return_event: true, the event as get_event returns it.');

/** What a write answers by default: enough to act on next (the etag for if_match), not the event. */
export const EventReceiptOutput = z.object({
  event_id: z.string(),
  calendar_id: z.string(),
  etag: z.string(),
  event: RequestedEventOutput,
});

/** The compact answer to a write, with the whole event only when the caller asked for it. */
export function eventReceipt(event: EventView, returnEvent: boolean) {
  return {
    event_id: event.id,
    calendar_id: event.calendar_id,
    etag: event.etag,
    ...(returnEvent ? { event } : {}),
  };
}

type AttendeeField = z.infer<typeof attendeesInput>[number];

/** One attendee in domain form; an email alone carries no response (the service keeps theirs). */
function toAttendee(attendee: AttendeeField): AttendeeInput {
  if (typeof attendee === 'string') return { email: attendee };
  return {
    email: attendee.email,
    ...(attendee.name ? { display_name: attendee.name } : {}),
    ...(attendee.response ? { response_status: attendee.response } : {}),
    ...(attendee.optional !== undefined ? { optional: attendee.optional } : {}),
  };
}

/** Turns tool-form fields (attendees as emails or objects) into the domain patch. */
export function toDomainPatch<T extends { attendees?: AttendeeField[] | undefined }>(fields: T) {
  const { attendees, ...rest } = fields;
  return { ...rest, ...(attendees ? { attendees: attendees.map(toAttendee) } : {}) };
}
