import { screenProviderEvent } from '../firewall/untrusted-text.js';
import { type CalendarZones, calendarEventView, type ProviderEvent } from './calendar-event-views.js';
import type { CalendarRecord } from './calendar-registry.js';
import type { EventView } from './event-view.js';

/**
 * An event read from its provider, as the read tools return it. A connected calendar's events
 * are written by other clients too, past the write-time firewall: their text is flagged here
 * (`untrusted`). Native events were checked when written.
 */
export function calendarReadView(
  calendars: CalendarZones,
  record: CalendarRecord,
  event: ProviderEvent,
): EventView {
  return calendarEventView(
    calendars,
    record,
    record.provider === 'native' ? event : screenProviderEvent(event),
  );
}
