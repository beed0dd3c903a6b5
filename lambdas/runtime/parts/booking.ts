/**
 * book_slot's service and the firewall it checks a booking's text with, one chunk in a bundle:
 * the wiring table imports them together so that a first book_slot loads a few chunks, not one
 * per module (each chunk costs a read, a parse and its source map on a cold start). The
 * calendar service is a chunk of its own: a first calendar call loads nothing of booking.
 */
export { BookingService } from '../../core/booking/booking-service.js';
export { checkEventContent } from '../../core/firewall/check-event-content.js';
