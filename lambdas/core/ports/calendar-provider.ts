import type {
  CalendarEvent,
  EditScope,
  EventDraft,
  EventPatch,
  ProviderCalendar,
} from '../calendar/event.js';
import type { CallWork } from '../call-work.js';

/** A calendar as a provider adapter addresses it. */
export interface CalendarRef {
  /** Id inside the provider, e.g. a Google calendar id or a CalDAV collection URL. */
  native_id: string;
  /** Provider-prefixed id the tools use, e.g. `caldav/<connection>/<name>`; stamped on every event. */
  calendar_id: string;
  /** The calendar's own zone, used to place all-day events and floating times. */
  time_zone?: string;
  /** The calendar owner's address where the provider does not know it itself (native calendars). */
  owner_email?: string;
}

export interface EventQuery {
  /** RFC 3339. Events that end after `start` and begin before `end` (overlap semantics). */
  start: string;
  end: string;
  /** true: series expanded into instances (default). false: series masters as stored. */
  single_events: boolean;
  /** Free-text filter on summary, description, location and attendees (case-insensitive). */
  query?: string;
  /** The provider's own cursor from a previous page. */
  page_token?: string;
  /** Page size hint; a provider may return fewer. */
  max_results: number;
  /**
   * The calling tool's work (items read, occurrences expanded), spent by providers that read or
   * expand in this process; it also stops the read when the call was cancelled.
   */
  work?: CallWork;
}

export interface EventPage {
  /** With single_events: ordered by start. */
  events: CalendarEvent[];
  next_page_token?: string;
  /**
   * A series had more occurrences in the window than one listing expands (MAX_SERIES_INSTANCES):
   * its later occurrences are missing. A caller deciding busy time must not call them free.
   */
  incomplete?: boolean;
}

export interface WriteOptions {
  /** For an instance of a recurring series: which part of the series changes. Default `this`. */
  scope: EditScope;
  /** The etag the caller last saw; the write is refused with STALE_WRITE if it changed. */
  if_match?: string;
}

/**
 * One connected account of one provider (native, Google, CalDAV). Adapters map failures to
 * `DomainError` codes: NOT_FOUND, STALE_WRITE, PROVIDER_ERROR (after their own retries),
 * PROVIDER_RATE_LIMITED, INVALID_INPUT.
 */
export interface CalendarProvider {
  listCalendars(): Promise<ProviderCalendar[]>;
  createCalendar(input: {
    name: string;
    description?: string;
    time_zone?: string;
  }): Promise<ProviderCalendar>;
  listEvents(calendar: CalendarRef, query: EventQuery): Promise<EventPage>;
  getEvent(calendar: CalendarRef, eventId: string): Promise<CalendarEvent>;
  createEvent(calendar: CalendarRef, draft: EventDraft): Promise<CalendarEvent>;
  /**
   * Patches an event. On an instance id (`<series>_<start>`), `scope` decides: `this` edits one
   * occurrence, `following` splits the series at it, `all` edits the whole series. On a series
   * master id, `all` is implied. Returns the event as written (for `following`, the new series).
   */
  updateEvent(
    calendar: CalendarRef,
    eventId: string,
    patch: EventPatch,
    options: WriteOptions,
  ): Promise<CalendarEvent>;
  deleteEvent(calendar: CalendarRef, eventId: string, options: WriteOptions): Promise<void>;
}
