import type { Principal } from '../access/rights.js';
import { compareAndSet } from '../compare-and-set.js';
import { isDomainError } from '../errors.js';
import { ownerAnswered, type ResponseStatus } from './attendee-responses.js';
import { calendarEventView } from './calendar-event-views.js';
import type { CalendarService } from './calendar-service.js';
import type { EditScope } from './event.js';
import type { EventView } from './event-view.js';

/** What respond_to_event did: the event after it, whose answer it was, and the answer before. */
export interface OwnerResponse {
  event: EventView;
  attendee: string;
  previous: ResponseStatus;
}

/**
 * Records the calendar owner's answer to an event on their attendee entry, through the provider
 * (Google's attendees[].responseStatus on the `self` entry, CalDAV's PARTSTAT on the owner's
 * ATTENDEE, the native item): a declined event then no longer blocks their time. Retried once on
 * a lost race unless the caller named the etag it read. An answer already recorded on one
 * occurrence writes nothing.
 *
 * @example
 * await respondToEvent(calendars, principal, { event_id: 'abc', response: 'declined', scope: 'this' });
 * // { event: {…}, attendee: 'ann@example.com', previous: 'needsAction' }
 */
export async function respondToEvent(
  calendars: CalendarService,
  principal: Principal,
  input: {
    calendar_id?: string;
    event_id: string;
    response: ResponseStatus;
    scope: EditScope;
    if_match?: string;
  },
): Promise<OwnerResponse> {
  const record = await calendars.calendarFor(principal, input.calendar_id, 'write');
  const { provider, ref } = await calendars.providerFor(record);
  const nativeWithoutOwner = record.provider === 'native' && !record.owner_email;
  return compareAndSet(
    async () => {
      const current = await provider.getEvent(ref, input.event_id);
      const answered = ownerAnswered(current, input.response, { nativeWithoutOwner });
      const said = { attendee: answered.owner, previous: answered.previous };
      if (answered.previous === input.response && input.scope === 'this') {
        return { event: calendarEventView(calendars, record, current), ...said };
      }
      const written = await provider.updateEvent(
        ref,
        input.event_id,
        { attendees: answered.attendees },
        { scope: input.scope, if_match: input.if_match ?? current.etag },
      );
      return { event: calendarEventView(calendars, record, written), ...said };
    },
    { maxAttempts: input.if_match ? 1 : 2, isLostRace: (error) => isDomainError(error, 'STALE_WRITE') },
  );
}
