import type {
  Attendee,
  CalendarEvent,
  EventPatch,
  EventTime,
  ProviderCalendar,
} from '../../core/calendar/event.js';
import { isDomainError } from '../../core/errors.js';
import type { CalendarRef } from '../../core/ports/index.js';
import { formatInstant } from '../../core/time/instants.js';
import { DateTime } from '../../core/time/luxon.js';
import {
  fromGraphRecurrence,
  type GraphPatternedRecurrence,
  occurrenceDate,
  toGraphRecurrence,
} from './graph-recurrence.js';
import { ianaToWindowsZone, zoneFromGraph } from './windows-zones.js';

/**
 * Microsoft Graph events ⇄ domain shapes. Graph answers in UTC here (the client prefers it); a
 * timed event is re-rendered in the zone it was scheduled in (`originalStartTimeZone`, a Windows
 * name mapped through CLDR), so every provider yields the same `…T09:00:00-05:00` form.
 */

export interface GraphTime {
  dateTime: string;
  timeZone: string;
}

export interface GraphEvent {
  '@odata.etag'?: string;
  id: string;
  subject?: string | null;
  body?: { contentType?: string; content?: string } | null;
  start?: GraphTime | null;
  end?: GraphTime | null;
  isAllDay?: boolean;
  originalStartTimeZone?: string | null;
  location?: { displayName?: string | null } | null;
  showAs?: string | null;
  sensitivity?: string | null;
  isCancelled?: boolean;
  isReminderOn?: boolean;
  reminderMinutesBeforeStart?: number;
  /** The mailbox owner's own answer to the event (set by accept/decline/tentativelyAccept). */
  responseStatus?: { response?: string; time?: string } | null;
  attendees?: {
    type?: string;
    status?: { response?: string };
    emailAddress?: { name?: string; address?: string };
  }[];
  organizer?: { emailAddress?: { name?: string; address?: string } } | null;
  type?: string;
  seriesMasterId?: string | null;
  originalStart?: string | null;
  recurrence?: GraphPatternedRecurrence | null;
  cancelledOccurrences?: string[];
  createdDateTime?: string;
  lastModifiedDateTime?: string;
  webLink?: string;
  transactionId?: string;
  categories?: string[];
}

export interface GraphCalendar {
  id: string;
  name?: string;
  canEdit?: boolean;
  isDefaultCalendar?: boolean;
  owner?: { address?: string } | null;
}

const RESPONSES: Record<string, Attendee['response_status']> = {
  accepted: 'accepted',
  organizer: 'accepted',
  tentativelyAccepted: 'tentative',
  declined: 'declined',
};
const TO_GRAPH_RESPONSE: Record<Attendee['response_status'], string> = {
  accepted: 'accepted',
  tentative: 'tentativelyAccepted',
  declined: 'declined',
  needsAction: 'none',
};
const SENSITIVITY_TO_VISIBILITY: Record<string, CalendarEvent['visibility']> = {
  normal: 'default',
  personal: 'private',
  private: 'private',
  confidential: 'confidential',
};
const VISIBILITY_TO_SENSITIVITY: Record<CalendarEvent['visibility'], string> = {
  default: 'normal',
  public: 'normal',
  private: 'private',
  confidential: 'confidential',
};

/** The owner's own answer to an event (`organizer` counts as accepted: they are going). */
export function ownerResponse(event: GraphEvent): Attendee['response_status'] {
  return RESPONSES[event.responseStatus?.response ?? ''] ?? 'needsAction';
}

/** The IANA zone of a Graph zone name, or undefined for one CLDR does not map (read side only). */
export function zoneOf(name: string | null | undefined): string | undefined {
  if (!name) return undefined;
  try {
    return zoneFromGraph(name);
  } catch (error) {
    if (isDomainError(error)) return undefined;
    throw error;
  }
}

/**
 * A Graph start/end as a domain EventTime: all-day as its date, timed in `zone`.
 *
 * @example
 * toEventTime({ dateTime: '2026-03-10T18:00:00.0000000', timeZone: 'UTC' }, false, 'America/New_York');
 * // { date_time: '2026-03-10T14:00:00-04:00', time_zone: 'America/New_York' }
 */
export function toEventTime(time: GraphTime | null | undefined, isAllDay: boolean, zone?: string): EventTime {
  const wall = time?.dateTime ?? '';
  if (isAllDay) return { date: wall.slice(0, 10) };
  const instant = DateTime.fromISO(wall, { zone: zoneOf(time?.timeZone) ?? 'utc' });
  const date_time = formatInstant(zone ? instant.setZone(zone) : instant.toUTC());
  return zone ? { date_time, time_zone: zone } : { date_time };
}

/**
 * A domain EventTime as Graph's: a wall clock in the event's zone (a Windows name), or midnight
 * of the date for an all-day event (Graph wants all-day bounds at midnight of one zone).
 *
 * @example
 * toGraphTime({ date_time: '2026-03-10T14:00:00-04:00', time_zone: 'America/New_York' });
 * // { dateTime: '2026-03-10T14:00:00', timeZone: 'Eastern Standard Time' }
 */
export function toGraphTime(time: EventTime, fallbackZone?: string): GraphTime {
  if ('date' in time)
    return { dateTime: `${time.date}T00:00:00`, timeZone: ianaToWindowsZone(fallbackZone ?? 'UTC') };
  const zone = time.time_zone ?? fallbackZone ?? 'UTC';
  const wall = DateTime.fromISO(time.date_time, { setZone: true }).setZone(zone);
  return { dateTime: wall.toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: ianaToWindowsZone(zone) };
}

/** The series' own zone: where its wall clock lives (its start zone, else the calendar's). */
export function eventZone(event: GraphEvent, calendar: CalendarRef): string | undefined {
  return zoneOf(event.originalStartTimeZone) ?? calendar.time_zone;
}

/**
 * Graph's text body as plain text. An HTML body (what Outlook writes) is reduced to its text:
 * tags dropped, common entities decoded; a description is context for an agent, not markup.
 */
function bodyText(body: GraphEvent['body']): string | undefined {
  const content = body?.content ?? '';
  if (!content) return undefined;
  if (body?.contentType?.toLowerCase() !== 'html') return content;
  return content
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
}

/**
 * A Graph event (single, occurrence, exception or series master) as a domain CalendarEvent. The
 * attendee whose address is `owner` (the signed-in account) is marked `self`, and their answer is
 * the event's `responseStatus` (Graph keeps the owner's own answer there, not in `attendees`).
 *
 * @example
 * toCalendarEvent(graphEvent, { native_id: 'AAMk…', calendar_id: 'outlook/c1/AAMk…' }).transparency; // 'opaque'
 */
export function toCalendarEvent(event: GraphEvent, calendar: CalendarRef, owner?: string): CalendarEvent {
  const zone = eventZone(event, calendar);
  const allDay = event.isAllDay === true;
  const start = toEventTime(event.start, allDay, zone);
  const attendees = (event.attendees ?? [])
    .filter((a) => a.emailAddress?.address)
    .map((a) => {
      const self = owner !== undefined && a.emailAddress?.address?.toLowerCase() === owner.toLowerCase();
      return {
        email: a.emailAddress?.address ?? '',
        ...(a.emailAddress?.name ? { display_name: a.emailAddress.name } : {}),
        response_status: self ? ownerResponse(event) : (RESPONSES[a.status?.response ?? ''] ?? 'needsAction'),
        ...(a.type === 'optional' ? { optional: true } : {}),
        ...(self ? { self: true } : {}),
      };
    });
  const recurrence =
    event.type === 'seriesMaster' && event.recurrence && zone
      ? fromGraphRecurrence(
          event.recurrence,
          { start, zone },
          (event.cancelledOccurrences ?? []).flatMap((id) => occurrenceDate(id) ?? []),
        )
      : undefined;
  const original = event.originalStart
    ? toEventTime({ dateTime: event.originalStart, timeZone: 'UTC' }, false, zone)
    : undefined;
  const originalStart =
    original && 'date_time' in original
      ? allDay
        ? { date: original.date_time.slice(0, 10) }
        : original
      : undefined;
  return {
    id: event.id,
    calendar_id: calendar.calendar_id,
    summary: event.subject ?? '',
    ...optional('description', bodyText(event.body)),
    ...optional('location', event.location?.displayName || undefined),
    start,
    end: toEventTime(event.end, allDay, zone),
    status: event.isCancelled ? 'cancelled' : 'confirmed',
    transparency: event.showAs === 'free' ? 'transparent' : 'opaque',
    visibility: SENSITIVITY_TO_VISIBILITY[event.sensitivity ?? ''] ?? 'default',
    attendees,
    ...(event.organizer?.emailAddress?.address
      ? {
          organizer: {
            email: event.organizer.emailAddress.address,
            ...optional('display_name', event.organizer.emailAddress.name),
          },
        }
      : {}),
    ...(event.isReminderOn === undefined
      ? {}
      : {
          reminders: event.isReminderOn
            ? {
                use_default: false,
                overrides: [{ method: 'popup' as const, minutes: event.reminderMinutesBeforeStart ?? 15 }],
              }
            : { use_default: false },
        }),
    ...(recurrence?.length ? { recurrence } : {}),
    ...optional('recurring_event_id', event.seriesMasterId ?? undefined),
    ...(originalStart && event.seriesMasterId ? { original_start: originalStart } : {}),
    etag: event['@odata.etag'] ?? '',
    ...optional('created', event.createdDateTime),
    ...optional('updated', event.lastModifiedDateTime),
    ...optional('html_link', event.webLink),
  };
}

/**
 * The Graph fields for a draft or patch: only what is present. `cancelledDates` are the local
 * dates a series' EXDATEs remove (Graph has none: the adapter deletes those occurrences after).
 *
 * @example
 * toGraphEvent({ summary: 'Standup' }, 'America/New_York').body; // { subject: 'Standup' }
 */
export function toGraphEvent(
  patch: EventPatch,
  fallbackZone: string | undefined,
): { body: Partial<GraphEvent>; cancelledDates: string[] } {
  const body: Record<string, unknown> = {};
  let cancelledDates: string[] = [];
  if (patch.summary !== undefined) body.subject = patch.summary;
  if (patch.description !== undefined) body.body = { contentType: 'text', content: patch.description };
  if (patch.location !== undefined) body.location = { displayName: patch.location };
  if (patch.start) body.start = toGraphTime(patch.start, fallbackZone);
  if (patch.end) body.end = toGraphTime(patch.end, fallbackZone);
  if (patch.start || patch.end) body.isAllDay = 'date' in (patch.start ?? patch.end ?? {});
  if (patch.transparency) body.showAs = patch.transparency === 'transparent' ? 'free' : 'busy';
  if (patch.status === 'tentative') body.showAs = 'tentative';
  if (patch.visibility) body.sensitivity = VISIBILITY_TO_SENSITIVITY[patch.visibility];
  if (patch.attendees) {
    // Each attendee's response as the organizer's item tracks it; the owner's own answer is
    // recorded with accept/decline/tentativelyAccept (see outlook-owner-answer.ts).
    body.attendees = patch.attendees.map((a) => ({
      type: a.optional ? 'optional' : 'required',
      status: { response: TO_GRAPH_RESPONSE[a.response_status] },
      emailAddress: { address: a.email, ...(a.display_name ? { name: a.display_name } : {}) },
    }));
  }
  if (patch.reminders) {
    const minutes = patch.reminders.overrides?.[0]?.minutes;
    body.isReminderOn = patch.reminders.use_default || minutes !== undefined;
    if (minutes !== undefined) body.reminderMinutesBeforeStart = minutes;
  }
  if (patch.recurrence?.length && patch.start) {
    const zone =
      'date' in patch.start ? (fallbackZone ?? 'UTC') : (patch.start.time_zone ?? fallbackZone ?? 'UTC');
    const written = toGraphRecurrence(patch.recurrence, { start: patch.start, zone });
    body.recurrence = written.recurrence;
    cancelledDates = written.cancelledDates;
  }
  return { body: body as Partial<GraphEvent>, cancelledDates };
}

/**
 * A Graph calendar as a ProviderCalendar. Graph gives a calendar no zone of its own (the
 * mailbox's needs MailboxSettings.Read, more than Meridian asks for): the server's default applies.
 *
 * @example
 * toProviderCalendar({ id: 'AAMk…', name: 'Calendar', isDefaultCalendar: true, canEdit: true }, 'a@contoso.com').access_role; // 'owner'
 */
export function toProviderCalendar(
  calendar: GraphCalendar,
  accountEmail: string | undefined,
): ProviderCalendar {
  const mine =
    !calendar.owner?.address || calendar.owner.address.toLowerCase() === accountEmail?.toLowerCase();
  const access_role =
    calendar.canEdit === false ? 'reader' : mine || calendar.isDefaultCalendar ? 'owner' : 'writer';
  return {
    native_id: calendar.id,
    name: calendar.name ?? calendar.id,
    primary: calendar.isDefaultCalendar === true,
    access_role,
  };
}

function optional<K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } {
  return (value === undefined || value === null ? {} : { [key]: value }) as { [P in K]?: V };
}
