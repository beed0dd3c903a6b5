import type { Attendee } from './event.js';

/**
 * The attendees with `self: true` on the calendar owner's entry and on no other: how native and
 * CalDAV calendars say what Google says itself, so that an invitation the owner declined never
 * blocks their time. Addresses compare case-insensitively; a stale `self` from an earlier owner
 * is removed.
 *
 * @example
 * markSelf([{ email: 'Ann@Example.com', response_status: 'declined' }], ['ann@example.com']);
 * // [{ email: 'Ann@Example.com', response_status: 'declined', self: true }]
 */
export function markSelf(attendees: readonly Attendee[], ownerEmails: readonly string[]): Attendee[] {
  const owners = new Set(ownerEmails.map((email) => email.toLowerCase()));
  return attendees.map(({ self: _stale, ...attendee }) =>
    owners.has(attendee.email.toLowerCase()) ? { ...attendee, self: true } : attendee,
  );
}
