import { eventFromDraft } from '../calendar/event-from-draft.js';
import type { ShadowCalendar } from '../ports/index.js';
import type { BookingResult } from './booking-schemas.js';

/**
 * Records a booking in the shadow calendar as the confirmed, busy event it is, so the shadow shows
 * it before the next sync replaces it with the provider's copy. Idempotent (a replayed step
 * records again). The etag is empty: only the provider's copy has a version. Release and
 * Compensate use it; it is its own module so that Lock, Verify and Write do not load it.
 */
export async function recordInShadow(
  shadow: ShadowCalendar,
  calendarId: string,
  booking: Pick<BookingResult, 'event_id' | 'summary' | 'start' | 'end'>,
): Promise<void> {
  const draft = {
    summary: booking.summary,
    start: { date_time: booking.start },
    end: { date_time: booking.end },
  };
  await shadow.recordBooking(
    calendarId,
    eventFromDraft(draft, { id: booking.event_id, calendar_id: calendarId, etag: '' }),
  );
}
