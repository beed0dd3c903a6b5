import type { EventView } from '../../../core/calendar/event-view.js';

/**
 * One flat row per event for TOON text: every row has the same scalar columns, which is what
 * lets TOON print a list as a table (header once, values per line) instead of repeating keys.
 * structuredContent keeps the full nested events.
 */
export function eventRow(
  event: Omit<EventView, 'attendees'> & { attendees: { email: string; response_status?: string }[] },
) {
  return {
    id: event.id,
    calendar_id: event.calendar_id,
    summary: event.summary,
    start: event.start_local,
    end: event.end_local,
    time_zone: event.time_zone,
    all_day: event.all_day,
    status: event.status,
    free: event.transparency === 'transparent',
    location: event.location ?? '',
    attendees: event.attendees.map(attendeeText).join(' '),
    recurring_event_id: event.recurring_event_id ?? '',
    etag: event.etag,
  };
}

/**
 * The rows of a page; the `untrusted` column is there only when an event of the page is flagged
 * (provider-synced text that reads like instructions), so an ordinary page pays nothing for it.
 */
export function eventRows(events: readonly Parameters<typeof eventRow>[0][]) {
  const flagged = events.some((event) => event.untrusted?.length);
  return events.map((event) => ({
    ...eventRow(event),
    ...(flagged ? { untrusted: event.untrusted?.join(' ') ?? '' } : {}),
  }));
}

/**
 * An attendee in one short word: the address, and the response once there is one
 * (`bob@example.com:declined`); no answer yet (`needsAction`) adds nothing.
 */
function attendeeText(attendee: { email: string; response_status?: string }): string {
  const answered = attendee.response_status && attendee.response_status !== 'needsAction';
  return answered ? `${attendee.email}:${attendee.response_status}` : attendee.email;
}
