/**
 * What CalendarService's event and calendar writes stand on beyond listing calendars: the content
 * firewall's rules, the luxon-based times and views, and the attendees' answers. The service
 * imports this module on the first call that needs it (one chunk in a bundle), so a first
 * list_calendars loads none of it.
 */

export {
  checkCalendarContent,
  checkEventContent,
  touchesEventText,
} from '../firewall/check-event-content.js';
export { lacksResponses, withKnownResponses } from './attendee-responses.js';
export { calendarEventView } from './calendar-event-views.js';
export { calendarReadView } from './calendar-read-view.js';
export { resolveEventTimes } from './event-time.js';
