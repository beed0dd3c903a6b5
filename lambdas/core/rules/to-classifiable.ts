import type { EventView } from '../calendar/event-view.js';
import type { ClassifiableEvent } from './classifiable-event.js';
import { WEEKDAYS, type Weekday } from './rule-properties.js';

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
  const start = localStart(event.start_local);
  return {
    title: event.summary.toLowerCase(),
    description: (event.description ?? '').toLowerCase(),
    attendees: others.map((a) => ({
      email: a.email.toLowerCase(),
      ...(a.display_name ? { name: a.display_name.toLowerCase() } : {}),
    })),
    response: ownEntry?.response_status ?? 'accepted',
    status: event.status,
    recurring: event.recurring_event_id !== undefined || (event.recurrence?.length ?? 0) > 0,
    transparency: event.transparency,
    allDay: event.all_day,
    weekday: start.weekday,
    startMinutes: event.all_day ? undefined : start.minutes,
    calendarName: calendar.name.toLowerCase(),
  };
}

/**
 * Weekday and minutes after midnight of a local start as the view writes it ("2026-11-16" or
 * "2026-11-16T09:30:00+01:00"): read from the text, which is already in the event's own zone.
 * Parsing it with luxon cost more than evaluating a hundred rules on the event.
 */
function localStart(text: string): { weekday: Weekday; minutes: number } {
  const days = Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
  // getUTCDay counts from Sunday (0); WEEKDAYS from Monday.
  const weekday = WEEKDAYS[(new Date(days).getUTCDay() + 6) % 7]!;
  return { weekday, minutes: Number(text.slice(11, 13)) * 60 + Number(text.slice(14, 16)) };
}
