import type { Weekday } from './rule-properties.js';

/** An attendee as rules see them: lower-cased address, optional display name. */
export interface RuleAttendee {
  readonly email: string;
  readonly name?: string;
}

/**
 * The facts of one event (or occurrence) that rule conditions read, computed once per event so that
 * evaluating many rules costs no date arithmetic. Text fields are already lower-cased.
 */
export interface ClassifiableEvent {
  readonly title: string;
  readonly description: string;
  /** Everyone on the event except the calendar owner. */
  readonly attendees: readonly RuleAttendee[];
  /** The calendar owner's response; `accepted` for the owner's own events with no invitation. */
  readonly response: 'accepted' | 'declined' | 'tentative' | 'needsAction';
  /** The event's own status (the organizer's), not the owner's response. */
  readonly status: 'confirmed' | 'tentative' | 'cancelled';
  readonly recurring: boolean;
  readonly transparency: 'opaque' | 'transparent';
  readonly allDay: boolean;
  /** Weekday of the local start, in the event's own zone. */
  readonly weekday: Weekday;
  /** Minutes after local midnight of the start; undefined for all-day events (no time of day). */
  readonly startMinutes: number | undefined;
  readonly calendarName: string;
}
