import type { CalendarRecord } from '../calendar/calendar-registry.js';
import type { CalendarEvent } from '../calendar/event.js';
import type { CallWork } from '../call-work.js';

/**
 * The shadow calendar port: Meridian's own copy of a connected calendar's events, read by the
 * booking workflow (verification) and by tools that want a quick answer without a provider
 * round trip. The sync engine (sync-calendar.ts) keeps it current; see docs/data-model.md.
 */

/** One event that blocks time, as epoch milliseconds `[start, end)`, not clipped to the asked window. */
export interface BusyInterval {
  start: number;
  end: number;
  event_id: string;
}

/** How old a calendar's shadow is. Both fields are absent when the calendar was never synced. */
export interface Freshness {
  /** RFC 3339 instant of the last successful sync. */
  synced_at?: string;
  /** Whole seconds between `synced_at` and now. */
  age_seconds?: number;
}

/** What {@link ShadowCalendar.busyIntervals} answers (the fields are described there). */
export interface ShadowBusy {
  intervals: BusyInterval[];
  synced_at?: string;
  incomplete?: true;
  live?: true;
  /** The record of the calendar read: the one given, or the one read for the id. */
  calendar: CalendarRecord;
}

export interface ShadowCalendar {
  /**
   * Events of the calendar that block time and overlap `[fromMs, toMs)`, sorted by start.
   * `synced_at` is the last successful sync, present only when the synced window covers the
   * asked range: without it the intervals are not a complete view, and a caller that needs
   * certainty (booking) must ask the provider. A native calendar is read directly and is always
   * current (`synced_at` is now, and `live` says the answer is the calendar itself, not a
   * copy: a second, live read would find nothing more). `incomplete` is set when a recurring
   * series has more occurrences there than one expansion gives: time missing from `intervals`
   * may still be busy.
   */
  busyIntervals(
    /**
     * The calendar's id, or its record when the caller has just read it (not read again). Given
     * an id, a connected calendar's record is read beside its shadow, in one round trip.
     */
    calendar: string | CalendarRecord,
    fromMs: number,
    toMs: number,
    /** The calling tool's work: occurrences expanded and entries read are spent from it. */
    work?: CallWork,
  ): Promise<ShadowBusy>;

  /**
   * Records an event Meridian itself just wrote to the provider (a booking), so the shadow shows
   * it before the next sync. Idempotent; the next sync replaces it with the provider's copy.
   * A no-op for native calendars, whose events already live in the table.
   */
  recordBooking(calendarId: string, event: CalendarEvent): Promise<void>;

  /** When the calendar was last synced, and how long ago. */
  freshness(calendarId: string): Promise<Freshness>;
}
