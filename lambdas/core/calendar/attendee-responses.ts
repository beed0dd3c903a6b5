import { DomainError } from '../errors.js';
import type { Attendee, CalendarEvent } from './event.js';

/** An attendee as a caller gives one: without `response_status` when only the address was given. */
export type AttendeeInput = Omit<Attendee, 'response_status' | 'self'> & {
  response_status?: Attendee['response_status'];
};

export type ResponseStatus = Attendee['response_status'];

/**
 * The attendee list a write stores: an attendee given without an answer keeps the one they
 * already have on the event (so adding Carol to a list does not erase Ann's decline), a new one
 * gets `needsAction`. Addresses compare case-insensitively.
 *
 * @example
 * withKnownResponses([{ email: 'ann@example.com' }], [{ email: 'Ann@example.com', response_status: 'declined' }]);
 * // [{ email: 'ann@example.com', response_status: 'declined' }]
 */
export function withKnownResponses(
  attendees: readonly AttendeeInput[],
  current: readonly Attendee[],
): Attendee[] {
  const known = new Map(current.map((a) => [a.email.toLowerCase(), a.response_status]));
  return attendees.map((attendee) => ({
    ...attendee,
    response_status: attendee.response_status ?? known.get(attendee.email.toLowerCase()) ?? 'needsAction',
  }));
}

/** Whether some attendee was given without an answer: the current event is needed to keep theirs. */
export function lacksResponses(attendees: readonly AttendeeInput[] | undefined): boolean {
  return attendees?.some((a) => a.response_status === undefined) ?? false;
}

/**
 * The owner's answer set on their attendee entry (the one the provider marks `self`), the other
 * attendees as they are. INVALID_INPUT, saying what to do, when the owner is not an attendee: an
 * event without them has no answer of theirs to record.
 *
 * @example
 * ownerAnswered(event, 'declined', { nativeWithoutOwner: false }).previous; // 'needsAction'
 */
export function ownerAnswered(
  event: CalendarEvent,
  response: ResponseStatus,
  calendar: { nativeWithoutOwner: boolean },
): { attendees: Attendee[]; owner: string; previous: ResponseStatus } {
  const owner = event.attendees.find((a) => a.self);
  if (!owner) {
    const why = calendar.nativeWithoutOwner
      ? 'this native calendar has no owner_email, so no attendee is known to be its owner. ' +
        'Create the calendar with owner_email (create_calendar) to answer invitations on it'
      : "the calendar's owner is not among its attendees. Add the owner's address with manage_attendees, " +
        'then answer; or, to keep the time free without answering, set transparency "transparent" with update_event';
    throw new DomainError('INVALID_INPUT', `No answer can be recorded on event "${event.id}": ${why}.`, {
      field: 'event_id',
    });
  }
  return {
    owner: owner.email,
    previous: owner.response_status,
    attendees: event.attendees.map(({ self: _self, ...a }) =>
      a.email === owner.email ? { ...a, response_status: response } : a,
    ),
  };
}
