import { z } from 'zod';
import {
  Attendee,
  CalendarEvent,
  EditScope,
  EventStatus,
  EventTime,
  Reminders,
  Transparency,
  Visibility,
} from '../../../core/calendar/event.js';
import { MAX_RECURRENCE_LINE_LENGTH, MAX_TOKEN_LENGTH } from '../../../core/input-limits.js';
import { boundedString, calendarIdString, emailAddress, eventIdString } from '../../schemas.js';

/** Shared input and output pieces of the calendar tools, described once. */

export const calendarIdInput = calendarIdString().describe(
  'Calendar id from list_calendars, e.g. "native/…" or "google/…". Omit for your primary calendar.',
);

export const eventIdInput = eventIdString().describe(
  'Event id from list_events or get_event. An occurrence of a series has the form "<series id>_<start>".',
);

export const eventTimeInput = EventTime.describe(
  'Either {date_time: RFC 3339 with offset, time_zone?: IANA} for a timed event, or {date: "YYYY-MM-DD"} for all-day (end date exclusive).',
);

export const attendeeEmails = z
  .array(emailAddress)
  .max(200)
  .describe(
    'Attendee email addresses. On update this replaces the whole list (see manage_attendees to add/remove).',
  );

export const scopeInput = EditScope.default('this').describe(
  'For an occurrence of a recurring series: "this" (only it), "following" (it and later ones: the series is split), or "all" (the whole series). Ignored for one-off events.',
);

export const ifMatchInput = boundedString(MAX_TOKEN_LENGTH).describe(
  'The etag you last read. The write is refused with STALE_WRITE if the event changed since.',
);

/** Editable event fields, all optional (a patch), in tool form: attendees as emails. */
export const eventFieldsInput = {
  summary: z.string().min(1).max(1024).describe('Title.'),
  description: z.string().max(8192).describe('Description (plain text).'),
  location: z.string().max(1024).describe('Location.'),
  start: eventTimeInput,
  end: eventTimeInput,
  status: EventStatus.describe('"confirmed", "tentative" or "cancelled".'),
  transparency: Transparency.describe('"opaque" (busy, default) or "transparent" (free).'),
  visibility: Visibility.describe('"default", "public", "private" or "confidential".'),
  attendees: attendeeEmails,
  reminders: Reminders.describe(
    '{use_default, overrides?: [{method: "email"|"popup", minutes}]}; {use_default: false, overrides: []} silences reminders.',
  ),
  color_id: z
    .string()
    .regex(/^([1-9]|1[01])$/)
    .describe('Color id 1–11.'),
  recurrence: z
    .array(z.string().max(MAX_RECURRENCE_LINE_LENGTH))
    .max(20)
    .describe('RFC 5545 lines, e.g. ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10"]. EXDATE lines allowed.'),
};

export const EventViewOutput = CalendarEvent.extend({
  start_utc: z.string(),
  end_utc: z.string(),
  start_local: z.string(),
  end_local: z.string(),
  time_zone: z.string(),
  all_day: z.boolean(),
});

export const WrittenEventOutput = z.object({ event_id: z.string(), event: EventViewOutput });

/** Turns tool-form fields (attendee emails) into the domain patch. */
export function toDomainPatch<T extends { attendees?: string[] | undefined }>(fields: T) {
  const { attendees, ...rest } = fields;
  return {
    ...rest,
    ...(attendees ? { attendees: attendees.map((email) => Attendee.parse({ email })) } : {}),
  };
}
