import { beforeEach, describe, expect, it } from 'vitest';
import type { Attendee } from '../../lambdas/core/calendar/event.js';
import type { CalendarProvider, CalendarRef } from '../../lambdas/core/ports/index.js';
import { at, type ContractSubject } from './calendar-provider-contract-support.js';

/**
 * Contract for attendee responses (issue 22, item 4): each attendee's response, name and
 * optional flag are kept by the provider's own mechanism (Google attendees[].responseStatus,
 * CalDAV ATTENDEE PARTSTAT/CN/ROLE, the native item), and the owner's entry is read back marked
 * `self`, which is what keeps a declined event from blocking their time.
 */

const GUEST = 'bob@example.com';

/**
 * Registers the attendee-response part of the contract. The subject must name its owner's address.
 *
 * @example
 * describeAttendeeResponseContract(() => subject); // inside describeCalendarProviderContract
 */
export function describeAttendeeResponseContract(current: () => ContractSubject): void {
  let provider: CalendarProvider;
  let calendar: CalendarRef;
  let owner: string;
  beforeEach(() => {
    const subject = current();
    ({ provider, calendar } = subject);
    if (!subject.owner_email) throw new Error('the contract subject must give owner_email');
    owner = subject.owner_email;
  });
  const entryOf = (attendees: Attendee[], email: string) =>
    attendees.find((a) => a.email.toLowerCase() === email.toLowerCase());

  describe('attendee responses', () => {
    it("keeps each attendee's response, name and optional flag, and marks the owner's entry self", async () => {
      const created = await provider.createEvent(calendar, {
        summary: 'Offsite',
        start: at('2026-03-04T10:00:00-05:00'),
        end: at('2026-03-04T11:00:00-05:00'),
        attendees: [
          { email: owner, response_status: 'declined' },
          { email: GUEST, display_name: 'Bob', response_status: 'tentative', optional: true },
        ],
      });

      const read = await provider.getEvent(calendar, created.id);

      expect(entryOf(read.attendees, owner)).toMatchObject({ response_status: 'declined', self: true });
      expect(entryOf(read.attendees, GUEST)).toMatchObject({
        display_name: 'Bob',
        response_status: 'tentative',
        optional: true,
      });
      expect(entryOf(read.attendees, GUEST)?.self).not.toBe(true);
    });

    it("changes the owner's response on one occurrence of a series and leaves the others", async () => {
      const master = await provider.createEvent(calendar, {
        summary: 'Weekly review',
        start: at('2026-03-02T09:00:00-05:00'),
        end: at('2026-03-02T10:00:00-05:00'),
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
        attendees: [
          { email: owner, response_status: 'accepted' },
          { email: GUEST, response_status: 'accepted' },
        ],
      });
      const page = await provider.listEvents(calendar, {
        start: '2026-03-01T00:00:00Z',
        end: '2026-03-31T00:00:00Z',
        single_events: true,
        max_results: 10,
      });
      const [, second] = page.events.filter((e) => e.recurring_event_id === master.id);

      await provider.updateEvent(
        calendar,
        second!.id,
        {
          attendees: second!.attendees.map(({ self: _self, ...a }) =>
            a.email.toLowerCase() === owner.toLowerCase() ? { ...a, response_status: 'declined' } : a,
          ),
        },
        { scope: 'this' },
      );
      const after = await provider.listEvents(calendar, {
        start: '2026-03-01T00:00:00Z',
        end: '2026-03-31T00:00:00Z',
        single_events: true,
        max_results: 10,
      });

      expect(after.events.map((e) => entryOf(e.attendees, owner)?.response_status)).toEqual([
        'accepted',
        'declined',
        'accepted',
      ]);
      expect(after.events.map((e) => entryOf(e.attendees, GUEST)?.response_status)).toEqual(
        Array(3).fill('accepted'),
      );
    });
  });
}
