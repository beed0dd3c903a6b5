import { DateTime } from 'luxon';
import type { EventView } from '../calendar/event-view.js';
import type { ClassifiableEvent } from './classifiable-event.js';
import { WEEKDAYS } from './rule-properties.js';

/**
 * The facts rules read from one event view. `ownerEmail` is the calendar owner's address (how it
 * is known depends on the provider); the owner is not counted among the attendees, and their own
 * response is `response`. An event the owner is not invited to is their own: `accepted`.
 */
export function toClassifiable(
  event: EventView,
  calendar: { name: string; ownerEmail?: string | undefined },
): ClassifiableEvent {
  const owner = calendar.ownerEmail?.toLowerCase();
  const ownEntry = event.attendees.find((a) => a.email.toLowerCase() === owner);
  const others = event.attendees.filter((a) => a !== ownEntry);
  const start = DateTime.fromISO(event.start_local, { setZone: true });
  return {
    title: event.summary.toLowerCase(),
    description: (event.description ?? '').toLowerCase(),
    attendees: others.map((a) => ({
      email: a.email.toLowerCase(),
      ...(a.display_name ? { name: a.display_name.toLowerCase() } : {}),
    })),
    response: ownEntry?.response_status ?? 'accepted',
    recurring: event.recurring_event_id !== undefined || (event.recurrence?.length ?? 0) > 0,
    transparency: event.transparency,
    allDay: event.all_day,
    weekday: WEEKDAYS[start.weekday - 1]!,
    startMinutes: event.all_day ? undefined : start.hour * 60 + start.minute,
    calendarName: calendar.name.toLowerCase(),
  };
}
