import type { CalendarEvent } from '../calendar/event.js';
import type { ShadowCalendar } from '../ports/index.js';
import type { BookingResult } from './booking-schemas.js';

/**
 * Records a booking in the shadow calendar as the confirmed, busy event it is, so the shadow shows
 * it before the next sync replaces it with the provider's copy. Idempotent (a replayed step
 * records again). The etag is empty: only the provider's copy has a version.
 *
 * The event is spelled out rather than made by eventFromDraft: its times were checked when the
 * booking was made, and eventFromDraft's checks live beside recurrence expansion (rrule, ical.js),
 * which Compensate's usual path — a slot found taken — would otherwise load for nothing.
 */
export async function recordInShadow(
  shadow: ShadowCalendar,
  calendarId: string,
  booking: Pick<BookingResult, 'event_id' | 'summary' | 'start' | 'end'>,
): Promise<void> {
  const event: CalendarEvent = {
    id: booking.event_id,
    calendar_id: calendarId,
    etag: '',
    summary: booking.summary,
    start: { date_time: booking.start },
    end: { date_time: booking.end },
    status: 'confirmed',
    transparency: 'opaque',
    visibility: 'default',
    attendees: [],
  };
  await shadow.recordBooking(calendarId, event);
}
