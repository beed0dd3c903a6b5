import type {
  ShadowCalendar as BookingShadowPort,
  ShadowBooking,
  ShadowBusy,
} from '../booking/shadow-calendar.js';
import { eventFromDraft } from '../calendar/event-from-draft.js';
import type { ShadowCalendar } from './shadow-calendar.js';

/**
 * The shadow calendar as the booking workflow's port sees it: busy intervals in its shape, and a
 * booking recorded as a confirmed, busy event. Event titles are not kept in the shadow's time
 * index, so a conflict found here names only the event id; Verify's live provider read names it fully.
 * An `incomplete` shadow answer is used as it is: Verify's live read expands from the slot's own
 * start, so a dense series that overlaps the slot is found there.
 */
export function shadowForBooking(shadow: ShadowCalendar): BookingShadowPort {
  return {
    async busyIntervals(calendarId, fromMs, toMs): Promise<ShadowBusy[]> {
      const { intervals } = await shadow.busyIntervals(calendarId, fromMs, toMs);
      return intervals.map((interval) => ({ start_ms: interval.start, end_ms: interval.end }));
    },
    async recordBooking(calendarId, booking: ShadowBooking): Promise<void> {
      const draft = {
        summary: booking.summary,
        start: { date_time: booking.start },
        end: { date_time: booking.end },
      };
      await shadow.recordBooking(
        calendarId,
        eventFromDraft(draft, { id: booking.event_id, calendar_id: calendarId, etag: '' }),
      );
    },
  };
}
