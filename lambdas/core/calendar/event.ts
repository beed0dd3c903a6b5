import * as z from 'zod';
import { MAX_INSTANT_TEXT_LENGTH, MAX_ZONE_NAME_LENGTH } from '../input-limits.js';

/**
 * The calendar domain model shared by every provider. Field names are snake_case because they
 * are also the public tool contract; providers map their own shapes (Google's camelCase,
 * iCalendar properties) to these in their adapters.
 */

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');

/** A timed instant (with the zone it was scheduled in) or an all-day date. All-day ends are exclusive. */
export const EventTime = z.union([
  z.object({
    date_time: z.string().max(MAX_INSTANT_TEXT_LENGTH).describe('RFC 3339 timestamp with offset'),
    time_zone: z
      .string()
      .max(MAX_ZONE_NAME_LENGTH)
      .optional()
      .describe('IANA zone the event was scheduled in'),
  }),
  z.object({ date: isoDate.describe('All-day date; an all-day end date is exclusive') }),
]);
export type EventTime = z.infer<typeof EventTime>;

export const ResponseStatus = z.enum(['needsAction', 'declined', 'tentative', 'accepted']);

export const Attendee = z.object({
  email: z.string().email(),
  display_name: z.string().optional(),
  response_status: ResponseStatus.default('needsAction'),
  optional: z.boolean().optional(),
  /**
   * Set by the provider on read: this attendee is the calendar's owner (Google's `self`), so
   * their answer is the calendar's. Ignored on write.
   */
  self: z.boolean().optional(),
});
export type Attendee = z.infer<typeof Attendee>;

export const Reminders = z.object({
  use_default: z.boolean(),
  overrides: z
    .array(z.object({ method: z.enum(['email', 'popup']), minutes: z.number().int().min(0).max(40_320) }))
    .max(5)
    .optional(),
});
export type Reminders = z.infer<typeof Reminders>;

export const EventStatus = z.enum(['confirmed', 'tentative', 'cancelled']);
export const Transparency = z.enum(['opaque', 'transparent']);
export const Visibility = z.enum(['default', 'public', 'private', 'confidential']);

export const CalendarEvent = z.object({
  /** Provider event id. An instance of a series has `<series id>_<original start, basic UTC>`. */
  id: z.string(),
  /** Provider-prefixed calendar id, e.g. `native/4f1c…`, `google/alice@example.com`. */
  calendar_id: z.string(),
  summary: z.string(),
  description: z.string().optional(),
  location: z.string().optional(),
  start: EventTime,
  end: EventTime,
  status: EventStatus,
  transparency: Transparency,
  visibility: Visibility,
  attendees: z.array(Attendee),
  organizer: z.object({ email: z.string(), display_name: z.string().optional() }).optional(),
  reminders: Reminders.optional(),
  color_id: z.string().optional(),
  /** RRULE/EXDATE/RDATE lines, on a series master only. */
  recurrence: z.array(z.string()).optional(),
  /** On an instance of a series: the master's id. */
  recurring_event_id: z.string().optional(),
  /** On an instance: the start it had in the series before any edit. */
  original_start: EventTime.optional(),
  /** Version for optimistic concurrency (`if_match`): an ETag or a version counter. */
  etag: z.string(),
  created: z.string().optional(),
  updated: z.string().optional(),
  html_link: z.string().optional(),
  /**
   * Set by Meridian, never by a provider: the firewall rules the text of an event from a connected
   * calendar trips (firewall/untrusted-text.ts). Native events are refused at write instead.
   */
  untrusted: z.array(z.string()).optional(),
});
export type CalendarEvent = z.infer<typeof CalendarEvent>;

/** What a caller provides to create an event. */
export const EventDraft = z.object({
  summary: z.string().min(1).max(1024),
  description: z.string().max(8192).optional(),
  location: z.string().max(1024).optional(),
  start: EventTime,
  end: EventTime,
  status: EventStatus.optional(),
  transparency: Transparency.optional(),
  visibility: Visibility.optional(),
  attendees: z.array(Attendee).max(200).optional(),
  reminders: Reminders.optional(),
  color_id: z
    .string()
    .regex(/^([1-9]|1[01])$/, 'expected a color id from 1 to 11')
    .optional(),
  recurrence: z.array(z.string()).max(20).optional(),
});
export type EventDraft = z.infer<typeof EventDraft>;

/** A partial update: only the fields present change. `attendees` replaces the whole list. */
export const EventPatch = EventDraft.partial();
export type EventPatch = z.infer<typeof EventPatch>;

/** Which part of a recurring series a write applies to. */
export const EditScope = z.enum(['this', 'following', 'all']);
export type EditScope = z.infer<typeof EditScope>;

export const ProviderCalendar = z.object({
  /** Id inside the provider (without the provider prefix). */
  native_id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  time_zone: z.string().optional(),
  primary: z.boolean(),
  /** What the connected account may do on this calendar, as the provider reports it. */
  access_role: z.enum(['owner', 'writer', 'reader', 'freeBusyReader']),
});
export type ProviderCalendar = z.infer<typeof ProviderCalendar>;
