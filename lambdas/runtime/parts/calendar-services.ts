/**
 * The calendar tools' services, one chunk in a bundle: the wiring table imports them together so
 * that a first calendar or booking call loads a few chunks, not one per class (each chunk costs a
 * read, a parse and its source map on a cold start).
 */
export { BookingService } from '../../core/booking/booking-service.js';
export { CalendarService } from '../../core/calendar/calendar-service.js';
export { checkEventContent } from '../../core/firewall/check-event-content.js';
