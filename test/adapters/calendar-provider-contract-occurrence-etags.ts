import { beforeEach, describe, expect, it } from 'vitest';
import type { CalendarEvent } from '../../lambdas/core/calendar/event.js';
import type { CalendarProvider, CalendarRef } from '../../lambdas/core/ports/index.js';
import { at, type ContractSubject, listAllEvents, utc } from './calendar-provider-contract-support.js';

/**
 * Contract for per-occurrence version tags (issue 22, item 5): each occurrence of a series has an
 * etag of its own. Editing one occurrence leaves every other occurrence's etag valid for
 * `if_match`; a change to the whole series changes them all.
 */

const SERIES_WINDOW = { start: '2026-03-01T00:00:00Z', end: '2026-04-15T00:00:00Z' };

/**
 * Registers the per-occurrence etag part of the contract.
 *
 * @example
 * describeOccurrenceEtagContract(() => subject); // inside describeCalendarProviderContract
 */
export function describeOccurrenceEtagContract(current: () => ContractSubject): void {
  let provider: CalendarProvider;
  let calendar: CalendarRef;
  beforeEach(() => {
    ({ provider, calendar } = current());
  });
  const instances = () => listAllEvents(provider, calendar, SERIES_WINDOW);

  /** A weekly series of five, its instances as one listing showed them. */
  async function weekly(): Promise<CalendarEvent[]> {
    await provider.createEvent(calendar, {
      summary: 'Weekly sync',
      start: at('2026-03-02T09:00:00-05:00'),
      end: at('2026-03-02T10:00:00-05:00'),
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'],
    });
    const listed = await instances();
    expect(listed).toHaveLength(5);
    return listed;
  }

  describe('per-occurrence etags', () => {
    it('takes an update of an untouched occurrence with its own if_match after a sibling moved', async () => {
      const [, , third, fourth] = (await weekly()) as CalendarEvent[];

      const moved = await provider.updateEvent(
        calendar,
        third!.id,
        { start: at('2026-03-16T11:00:00-04:00'), end: at('2026-03-16T12:00:00-04:00') },
        { scope: 'this', if_match: third!.etag },
      );
      const renamed = await provider.updateEvent(
        calendar,
        fourth!.id,
        { summary: 'Fourth, renamed' },
        { scope: 'this', if_match: fourth!.etag },
      );
      const after = await instances();

      expect(moved.etag).not.toBe(third!.etag);
      expect(renamed.summary).toBe('Fourth, renamed');
      expect(after.map((i) => i.summary)).toEqual([
        'Weekly sync',
        'Weekly sync',
        'Weekly sync',
        'Fourth, renamed',
        'Weekly sync',
      ]);
      expect(utc(after[2]!.start)).toBe('2026-03-16T15:00:00.000Z');
    });

    it("keeps every other occurrence's etag as it was when one occurrence is edited", async () => {
      const before = await weekly();

      const edited = await provider.updateEvent(
        calendar,
        before[1]!.id,
        { location: 'Room 4' },
        { scope: 'this', if_match: before[1]!.etag },
      );
      const after = await instances();

      expect(after[1]!.etag).toBe(edited.etag);
      expect(after.filter((_, i) => i !== 1).map((i) => i.etag)).toEqual(
        before.filter((_, i) => i !== 1).map((i) => i.etag),
      );
    });

    it('refuses a second edit of the same occurrence with the etag it had before the first', async () => {
      const [first] = await weekly();

      await provider.updateEvent(calendar, first!.id, { location: 'Room 1' }, { scope: 'this' });

      await expect(
        provider.updateEvent(
          calendar,
          first!.id,
          { location: 'Room 2' },
          { scope: 'this', if_match: first!.etag },
        ),
      ).rejects.toMatchObject({ code: 'STALE_WRITE' });
    });

    it('deletes an untouched occurrence with its own if_match after a sibling was edited', async () => {
      const before = await weekly();

      await provider.updateEvent(calendar, before[0]!.id, { summary: 'First' }, { scope: 'this' });
      await provider.deleteEvent(calendar, before[4]!.id, { scope: 'this', if_match: before[4]!.etag });

      expect((await instances()).map((i) => i.summary)).toEqual([
        'First',
        'Weekly sync',
        'Weekly sync',
        'Weekly sync',
      ]);
    });

    it("refuses an occurrence's old etag after a change to the whole series", async () => {
      const before = await weekly();

      await provider.updateEvent(calendar, before[1]!.id, { summary: 'Renamed' }, { scope: 'all' });

      await expect(
        provider.updateEvent(
          calendar,
          before[3]!.id,
          { location: 'Room 9' },
          { scope: 'this', if_match: before[3]!.etag },
        ),
      ).rejects.toMatchObject({ code: 'STALE_WRITE' });
      expect((await instances()).map((i) => i.summary)).toEqual(Array(5).fill('Renamed'));
    });
  });
}
