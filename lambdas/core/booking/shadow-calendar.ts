/**
 * The shadow calendar: Meridian's own copy of the busy times of a calendar (provider events as last
 * synced, plus bookings made through Meridian). book_slot consults it before writing and records
 * every booking in it; check_availability and sync will read and fill it.
 */

/** A busy interval the shadow calendar knows about; the event is named only when it knows which. */
export interface ShadowBusy {
  start_ms: number;
  end_ms: number;
  event?: { event_id: string; summary: string };
}

/** A booking as book_slot records it. */
export interface ShadowBooking {
  event_id: string;
  summary: string;
  /** RFC 3339. */
  start: string;
  end: string;
}

/** The port. Implementations must make `recordBooking` idempotent (a replayed booking records again). */
export interface ShadowCalendar {
  /** Busy intervals of the calendar that overlap [fromMs, toMs). */
  busyIntervals(calendarId: string, fromMs: number, toMs: number): Promise<ShadowBusy[]>;
  recordBooking(calendarId: string, booking: ShadowBooking): Promise<void>;
}
