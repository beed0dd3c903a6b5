import { beforeEach, describe, expect, it } from 'vitest';
import type { CalendarProvider, CalendarRef, EventQuery } from '../../lambdas/core/ports/index.js';
import { at, type ContractSubject, listAllEvents, utc } from './calendar-provider-contract-support.js';

/**
 * Contract for single (non-recurring) events: CRUD of timed and all-day events, window listing
 * with overlap semantics, paging, free-text query, etags and NOT_FOUND.
 *
 * @example
 * describeSingleEventContract(() => subject); // inside describeCalendarProviderContract
 */
export function describeSingleEventContract(current: () => ContractSubject): void {
  let provider: CalendarProvider;
  let calendar: CalendarRef;
  beforeEach(() => {
    ({ provider, calendar } = current());
  });
  const listAll = (window: { start: string; end: string }, extra: Partial<EventQuery> = {}) =>
    listAllEvents(provider, calendar, window, extra);

  describe('timed events', () => {
    it('creates an event and reads back the same fields', async () => {
      const created = await provider.createEvent(calendar, {
        summary: 'Design review',
        description: 'Walk through the draft',
        location: 'Room 4',
        start: at('2026-03-10T14:00:00-04:00'),
        end: at('2026-03-10T15:30:00-04:00'),
      });

      const read = await provider.getEvent(calendar, created.id);

      expect(read).toMatchObject({
        id: created.id,
        calendar_id: calendar.calendar_id,
        summary: 'Design review',
        description: 'Walk through the draft',
        location: 'Room 4',
        status: 'confirmed',
        transparency: 'opaque',
      });
      expect(utc(read.start)).toBe('2026-03-10T18:00:00.000Z');
      expect(utc(read.end)).toBe('2026-03-10T19:30:00.000Z');
      expect(read.etag).not.toBe('');
    });

    it('changes only the patched fields and gives a new etag', async () => {
      const created = await provider.createEvent(calendar, {
        summary: 'Lunch',
        location: 'Cafe',
        start: at('2026-03-10T12:00:00-04:00'),
        end: at('2026-03-10T13:00:00-04:00'),
      });

      const updated = await provider.updateEvent(
        calendar,
        created.id,
        {
          summary: 'Long lunch',
          end: at('2026-03-10T14:00:00-04:00'),
          start: at('2026-03-10T12:00:00-04:00'),
        },
        { scope: 'this' },
      );
      const read = await provider.getEvent(calendar, created.id);

      expect(updated.etag).not.toBe(created.etag);
      expect(read).toMatchObject({ id: created.id, summary: 'Long lunch', location: 'Cafe' });
      expect(utc(read.end)).toBe('2026-03-10T18:00:00.000Z');
    });

    it('deletes an event so that reading it answers NOT_FOUND', async () => {
      const created = await provider.createEvent(calendar, {
        summary: 'Cancelled call',
        start: at('2026-03-11T09:00:00-04:00'),
        end: at('2026-03-11T09:30:00-04:00'),
      });

      await provider.deleteEvent(calendar, created.id, { scope: 'this' });

      await expect(provider.getEvent(calendar, created.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await listAll({ start: '2026-03-11T00:00:00Z', end: '2026-03-12T00:00:00Z' })).toEqual([]);
    });

    it('keeps event ids stable across reads and listings', async () => {
      const created = await provider.createEvent(calendar, {
        summary: 'Stable',
        start: at('2026-03-12T09:00:00-04:00'),
        end: at('2026-03-12T10:00:00-04:00'),
      });

      const first = await provider.getEvent(calendar, created.id);
      const second = await provider.getEvent(calendar, created.id);
      const listed = await listAll({ start: '2026-03-12T00:00:00Z', end: '2026-03-13T00:00:00Z' });

      expect([first.id, second.id, ...listed.map((e) => e.id)]).toEqual([created.id, created.id, created.id]);
    });
  });

  describe('all-day events', () => {
    it('creates, updates and deletes an all-day event with exclusive end dates', async () => {
      const created = await provider.createEvent(calendar, {
        summary: 'Offsite',
        start: { date: '2026-04-10' },
        end: { date: '2026-04-11' },
      });
      expect(await provider.getEvent(calendar, created.id)).toMatchObject({
        start: { date: '2026-04-10' },
        end: { date: '2026-04-11' },
      });

      await provider.updateEvent(
        calendar,
        created.id,
        { end: { date: '2026-04-12' }, start: { date: '2026-04-10' } },
        {
          scope: 'this',
        },
      );
      expect((await provider.getEvent(calendar, created.id)).end).toEqual({ date: '2026-04-12' });

      await provider.deleteEvent(calendar, created.id, { scope: 'this' });
      await expect(provider.getEvent(calendar, created.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('lists an all-day event in windows inside its days only', async () => {
      const created = await provider.createEvent(calendar, {
        summary: 'Holiday',
        start: { date: '2026-04-10' },
        end: { date: '2026-04-11' },
      });

      const inside = await listAll({ start: '2026-04-10T12:00:00Z', end: '2026-04-10T13:00:00Z' });
      const after = await listAll({ start: '2026-04-12T12:00:00Z', end: '2026-04-12T13:00:00Z' });

      expect(inside.map((e) => e.id)).toEqual([created.id]);
      expect(after).toEqual([]);
    });
  });

  describe('listEvents', () => {
    it('lists events overlapping the window and leaves out those that only touch it', async () => {
      const make = (summary: string, start: string, end: string) =>
        provider.createEvent(calendar, { summary, start: at(start), end: at(end) });
      await make('spans the window', '2026-03-20T07:30:00-04:00', '2026-03-20T13:00:00-04:00');
      await make('starts before, ends inside', '2026-03-20T08:00:00-04:00', '2026-03-20T09:30:00-04:00');
      await make('ends at window start', '2026-03-20T07:00:00-04:00', '2026-03-20T09:00:00-04:00');
      await make('inside', '2026-03-20T10:00:00-04:00', '2026-03-20T11:00:00-04:00');
      await make('starts at window end', '2026-03-20T12:00:00-04:00', '2026-03-20T12:30:00-04:00');

      const listed = await listAll({
        start: '2026-03-20T09:00:00-04:00',
        end: '2026-03-20T12:00:00-04:00',
      });

      expect(listed.map((e) => e.summary)).toEqual([
        'spans the window',
        'starts before, ends inside',
        'inside',
      ]);
    });

    it('pages through results without dropping or repeating events', async () => {
      const ids: string[] = [];
      for (let day = 1; day <= 7; day += 1) {
        const date = `2026-05-0${day}`;
        const created = await provider.createEvent(calendar, {
          summary: `Day ${day}`,
          start: at(`${date}T09:00:00-04:00`),
          end: at(`${date}T10:00:00-04:00`),
        });
        ids.push(created.id);
      }

      const listed = await listAll(
        { start: '2026-05-01T00:00:00Z', end: '2026-05-09T00:00:00Z' },
        { max_results: 3 },
      );

      expect(listed.map((e) => e.id)).toEqual(ids);
    });

    it('filters by a case-insensitive free-text query', async () => {
      await provider.createEvent(calendar, {
        summary: 'Dentist',
        start: at('2026-03-25T15:00:00-04:00'),
        end: at('2026-03-25T16:00:00-04:00'),
      });
      await provider.createEvent(calendar, {
        summary: 'Team standup',
        start: at('2026-03-25T09:00:00-04:00'),
        end: at('2026-03-25T09:15:00-04:00'),
      });

      const listed = await listAll(
        { start: '2026-03-25T00:00:00Z', end: '2026-03-26T00:00:00Z' },
        { query: 'dentist' },
      );

      expect(listed.map((e) => e.summary)).toEqual(['Dentist']);
    });
  });

  describe('concurrency and missing events', () => {
    it('refuses an update with a stale if_match (STALE_WRITE) and accepts the current etag', async () => {
      const created = await provider.createEvent(calendar, {
        summary: 'Contested',
        start: at('2026-03-13T09:00:00-04:00'),
        end: at('2026-03-13T10:00:00-04:00'),
      });
      const first = await provider.updateEvent(
        calendar,
        created.id,
        { summary: 'First writer' },
        {
          scope: 'this',
          if_match: created.etag,
        },
      );

      await expect(
        provider.updateEvent(
          calendar,
          created.id,
          { summary: 'Second writer' },
          { scope: 'this', if_match: created.etag },
        ),
      ).rejects.toMatchObject({ code: 'STALE_WRITE' });
      expect((await provider.getEvent(calendar, created.id)).summary).toBe('First writer');

      const second = await provider.updateEvent(
        calendar,
        created.id,
        { summary: 'Second writer' },
        {
          scope: 'this',
          if_match: first.etag,
        },
      );
      expect(second.summary).toBe('Second writer');
    });

    it('refuses a delete with a stale if_match', async () => {
      const created = await provider.createEvent(calendar, {
        summary: 'Keep me',
        start: at('2026-03-13T11:00:00-04:00'),
        end: at('2026-03-13T12:00:00-04:00'),
      });
      await provider.updateEvent(calendar, created.id, { summary: 'Changed' }, { scope: 'this' });

      await expect(
        provider.deleteEvent(calendar, created.id, { scope: 'this', if_match: created.etag }),
      ).rejects.toMatchObject({ code: 'STALE_WRITE' });
      expect((await provider.getEvent(calendar, created.id)).summary).toBe('Changed');
    });

    it('answers NOT_FOUND for a missing event on get, update and delete', async () => {
      const missing = 'doesnotexist0000000000000';

      await expect(provider.getEvent(calendar, missing)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        provider.updateEvent(calendar, missing, { summary: 'x' }, { scope: 'this' }),
      ).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(provider.deleteEvent(calendar, missing, { scope: 'this' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });
  });
}
