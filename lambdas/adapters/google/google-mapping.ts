import type { calendar_v3 } from '@googleapis/calendar';
import type {
  Attendee,
  CalendarEvent,
  EventPatch,
  EventTime,
  ProviderCalendar,
  Reminders,
} from '../../core/calendar/event.js';
import type { CalendarRef } from '../../core/ports/index.js';
import { formatInstant } from '../../core/time/instants.js';
import { DateTime, IANAZone } from '../../core/time/luxon.js';

/**
 * Google Calendar ⇄ domain shapes. Google is camelCase with optional-everything; the domain model
 * is snake_case with defaults filled in (Google omits transparency/visibility when they are the
 * default, and omits responseStatus on some attendees).
 */

export type GoogleEvent = calendar_v3.Schema$Event;
export type GoogleTime = calendar_v3.Schema$EventDateTime;

const ACCESS_ROLES = ['owner', 'writer', 'reader', 'freeBusyReader'] as const;
const RESPONSE_STATUSES = ['needsAction', 'declined', 'tentative', 'accepted'] as const;
const STATUSES = ['confirmed', 'tentative', 'cancelled'] as const;
const VISIBILITIES = ['default', 'public', 'private', 'confidential'] as const;

function oneOf<T extends string>(allowed: readonly T[], value: string | null | undefined, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/**
 * A Google start/end as a domain EventTime. Timed values are re-rendered in their zone so that
 * every provider yields the same `2026-03-02T09:00:00-05:00` form (never `Z`).
 *
 * @example
 * toEventTime({ dateTime: '2026-03-02T14:00:00Z', timeZone: 'America/New_York' });
 * // { date_time: '2026-03-02T09:00:00-05:00', time_zone: 'America/New_York' }
 */
export function toEventTime(time: GoogleTime | undefined): EventTime {
  if (time?.date) return { date: time.date };
  const raw = time?.dateTime ?? '';
  const zone = time?.timeZone && IANAZone.isValidZone(time.timeZone) ? time.timeZone : undefined;
  const parsed = DateTime.fromISO(raw, { setZone: true });
  const date_time = parsed.isValid ? formatInstant(zone ? parsed.setZone(zone) : parsed) : raw;
  return zone ? { date_time, time_zone: zone } : { date_time };
}

/**
 * A domain EventTime as Google's. The other variant's fields are sent as `null` because a Google
 * patch merges objects field by field: turning a timed event all-day must clear `dateTime`.
 *
 * @example
 * toGoogleTime({ date: '2026-03-02' }); // { date: '2026-03-02', dateTime: null, timeZone: null }
 */
export function toGoogleTime(time: EventTime, fallbackZone?: string): GoogleTime {
  if ('date' in time) return { date: time.date, dateTime: null, timeZone: null };
  return { dateTime: time.date_time, timeZone: time.time_zone ?? fallbackZone ?? null, date: null };
}

function toAttendee(attendee: calendar_v3.Schema$EventAttendee): Attendee {
  return {
    email: attendee.email ?? '',
    display_name: attendee.displayName ?? undefined,
    response_status: oneOf(RESPONSE_STATUSES, attendee.responseStatus, 'needsAction'),
    optional: attendee.optional ?? undefined,
    // Google marks the entry of the calendar this copy of the event is on: its owner.
    ...(attendee.self ? { self: true } : {}),
  };
}

function toReminders(reminders: calendar_v3.Schema$Event['reminders']): Reminders | undefined {
  if (!reminders) return undefined;
  const overrides = (reminders.overrides ?? [])
    .filter((o) => o.method === 'email' || o.method === 'popup')
    .map((o) => ({ method: o.method as 'email' | 'popup', minutes: o.minutes ?? 0 }));
  return { use_default: reminders.useDefault ?? false, ...(overrides.length ? { overrides } : {}) };
}

/**
 * A Google event as a domain CalendarEvent of `calendar`.
 *
 * @example
 * toCalendarEvent(googleEvent, { native_id: 'primary', calendar_id: 'google/c1/primary' }).transparency; // 'opaque'
 */
export function toCalendarEvent(event: GoogleEvent, calendar: CalendarRef): CalendarEvent {
  const optional = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
  return {
    id: event.id ?? '',
    calendar_id: calendar.calendar_id,
    summary: event.summary ?? '',
    description: optional(event.description),
    location: optional(event.location),
    start: toEventTime(event.start),
    end: toEventTime(event.end),
    status: oneOf(STATUSES, event.status, 'confirmed'),
    transparency: event.transparency === 'transparent' ? 'transparent' : 'opaque',
    visibility: oneOf(VISIBILITIES, event.visibility, 'default'),
    attendees: (event.attendees ?? []).filter((a) => a.email).map(toAttendee),
    organizer: event.organizer?.email
      ? { email: event.organizer.email, display_name: optional(event.organizer.displayName) }
      : undefined,
    reminders: toReminders(event.reminders),
    color_id: optional(event.colorId),
    recurrence: event.recurrence?.length ? event.recurrence : undefined,
    recurring_event_id: optional(event.recurringEventId),
    original_start: event.originalStartTime ? toEventTime(event.originalStartTime) : undefined,
    etag: event.etag ?? '',
    created: optional(event.created),
    updated: optional(event.updated),
    html_link: optional(event.htmlLink),
  };
}

/**
 * The Google fields for a draft or patch: only what is present. A recurring timed event needs a
 * zone on Google, so the calendar's zone fills in when the caller gave none.
 *
 * @example
 * toGoogleEvent({ summary: 'Standup', color_id: '5' }); // { summary: 'Standup', colorId: '5' }
 */
export function toGoogleEvent(patch: EventPatch, fallbackZone?: string): GoogleEvent {
  const zone = patch.recurrence?.length ? fallbackZone : undefined;
  const body: GoogleEvent = {
    summary: patch.summary,
    description: patch.description,
    location: patch.location,
    start: patch.start && toGoogleTime(patch.start, zone),
    end: patch.end && toGoogleTime(patch.end, zone),
    status: patch.status,
    transparency: patch.transparency,
    visibility: patch.visibility,
    attendees: patch.attendees?.map((a) => ({
      email: a.email,
      displayName: a.display_name,
      responseStatus: a.response_status,
      optional: a.optional,
    })),
    reminders: patch.reminders && {
      useDefault: patch.reminders.use_default,
      // An empty list clears overrides a previous write left (patches merge objects).
      overrides: patch.reminders.overrides ?? [],
    },
    colorId: patch.color_id,
    recurrence: patch.recurrence,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as GoogleEvent;
}

/**
 * A calendarList entry (or a freshly inserted calendar) as a ProviderCalendar.
 *
 * @example
 * toProviderCalendar({ id: 'alice@example.com', summary: 'Alice', primary: true, accessRole: 'owner' }).primary; // true
 */
export function toProviderCalendar(entry: calendar_v3.Schema$CalendarListEntry): ProviderCalendar {
  return {
    native_id: entry.id ?? '',
    name: entry.summaryOverride ?? entry.summary ?? entry.id ?? '',
    description: entry.description ?? undefined,
    time_zone: entry.timeZone ?? undefined,
    primary: entry.primary ?? false,
    access_role: oneOf(ACCESS_ROLES, entry.accessRole, 'reader'),
  };
}
