import type { CalendarRecord } from './calendar-registry.js';
import { type EventView, toEventView } from './event-view.js';

/** The zone a calendar's times are shown in (CalendarService.zoneOf). */
export interface CalendarZones {
  zoneOf(record: CalendarRecord): string;
}

export type ProviderEvent = Parameters<typeof toEventView>[0];

/**
 * An event as the tools return it, in its calendar's zone. A free function, not a CalendarService
 * method: it stands on luxon, which a first list_calendars does not load.
 */
export function calendarEventView(
  calendars: CalendarZones,
  record: CalendarRecord,
  event: ProviderEvent,
): EventView {
  return toEventView(event, calendars.zoneOf(record));
}
