import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CalendarEvent, EventDraft, EventTime } from '../../lambdas/core/calendar/event.js';
import type { CalendarProvider, CalendarRef, EventQuery } from '../../lambdas/core/calendar/provider.js';

/**
 * Behaviour every CalendarProvider (native, CalDAV, Google) must share, run against each one.
 * Provider-neutral on purpose: ids are only compared with ids the provider returned, times are
 * compared as instants, and nothing assumes a provider's id format or etag format.
 *
 * Expected instants are written out by hand: the weekly series below starts on 2026-03-02 at
 * 09:00 America/New_York (EST, UTC-5); US daylight saving time starts on 2026-03-08, so from the
 * second instance on, 09:00 local is 13:00 UTC.
 */

export interface ContractSubject {
  provider: CalendarProvider;
  /** An empty calendar the tests may fill. */
  calendar: CalendarRef;
  close(): Promise<void>;
}

const ZONE = 'America/New_York';
const at = (date_time: string): EventTime => ({ date_time, time_zone: ZONE });
const utc = (time: EventTime): string => ('date' in time ? time.date : new Date(time.date_time).toISOString());

const WEEKLY: EventDraft = {
  summary: 'Weekly sync',
  start: at('2026-03-02T09:00:00-05:00'),
  end: at('2026-03-02T10:00:00-05:00'),
  recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'],
};
const WEEKLY_STARTS = [
  '2026-03-02T14:00:00.000Z',
  '2026-03-09T13:00:00.000Z',
  '2026-03-16T13:00:00.000Z',
  '2026-03-23T13:00:00.000Z',
  '2026-03-30T13:00:00.000Z',
];
const SERIES_WINDOW = { start: '2026-03-01T00:00:00Z', end: '2026-04-15T00:00:00Z' };

/**
 * Registers the contract suite. `setup` runs before each test and must give an empty calendar;
 * `close` runs after it.
 *
 * @example
 * describeCalendarProviderContract('GoogleCalendarProvider', async () => {
 *   const fixture = await startGoogleFixture();
 *   return { provider: fixture.provider, calendar: fixture.primary, close: fixture.close };
 * });
 */
export function describeCalendarProviderContract(label: string, setup: () => Promise<ContractSubject>): void {
  describe(`${label} (CalendarProvider contract)`, () => {
    let provider: CalendarProvider;
    let calendar: CalendarRef;
    let subject: ContractSubject;

    beforeEach(async () => {
      subject = await setup();
      ({ provider, calendar } = subject);
    });
    afterEach(async () => {
      await subject.close();
    });

    /** Every event of a window, following page tokens. */
    async function listAll(window: { start: string; end: string }, extra: Partial<EventQuery> = {}) {
      const events: CalendarEvent[] = [];
      let page_token: string | undefined;
      for (let pages = 0; pages < 100; pages += 1) {
        const page = await provider.listEvents(calendar, {
          ...window,
          single_events: true,
          max_results: 50,
          ...extra,
          page_token,
        });
        events.push(...page.events);
        page_token = page.next_page_token;
        if (!page_token) return events;
      }
      throw new Error('more than 100 pages: the provider keeps returning a page token');
    }

    async function seriesInstances() {
      return listAll(SERIES_WINDOW);
    }

    async function createWeekly() {
      const master = await provider.createEvent(calendar, WEEKLY);
      const instances = await seriesInstances();
      expect(instances.map((i) => utc(i.start))).toEqual(WEEKLY_STARTS);
      return { master, instances };
    }

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
          { summary: 'Long lunch', end: at('2026-03-10T14:00:00-04:00'), start: at('2026-03-10T12:00:00-04:00') },
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

        await provider.updateEvent(calendar, created.id, { end: { date: '2026-04-12' }, start: { date: '2026-04-10' } }, {
          scope: 'this',
        });
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

        const listed = await listAll({ start: '2026-03-20T09:00:00-04:00', end: '2026-03-20T12:00:00-04:00' });

        expect(listed.map((e) => e.summary)).toEqual(['spans the window', 'starts before, ends inside', 'inside']);
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

        const listed = await listAll({ start: '2026-05-01T00:00:00Z', end: '2026-05-09T00:00:00Z' }, { max_results: 3 });

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

        const listed = await listAll({ start: '2026-03-25T00:00:00Z', end: '2026-03-26T00:00:00Z' }, { query: 'dentist' });

        expect(listed.map((e) => e.summary)).toEqual(['Dentist']);
      });
    });

    describe('recurring series', () => {
      it('expands a weekly series with COUNT into instances at the same local time across DST', async () => {
        const { master, instances } = await createWeekly();

        expect(instances.map((i) => i.summary)).toEqual(Array(5).fill('Weekly sync'));
        expect(instances.map((i) => utc(i.end))).toEqual(
          WEEKLY_STARTS.map((s) => new Date(Date.parse(s) + 3_600_000).toISOString()),
        );
        expect(instances.every((i) => i.recurring_event_id === master.id)).toBe(true);
        expect(new Set(instances.map((i) => i.id)).size).toBe(5);
      });

      it('lists the series master once when single_events is false', async () => {
        const { master } = await createWeekly();

        const listed = await listAll(SERIES_WINDOW, { single_events: false });

        expect(listed.map((e) => e.id)).toEqual([master.id]);
        expect(listed[0]?.recurrence?.some((line) => line.includes('FREQ=WEEKLY'))).toBe(true);
      });

      it('reads one instance by its id and keeps instance ids stable across listings', async () => {
        const { master, instances } = await createWeekly();

        const third = await provider.getEvent(calendar, instances[2]?.id ?? '');
        const again = await seriesInstances();

        expect(third).toMatchObject({ id: instances[2]?.id, recurring_event_id: master.id });
        expect(utc(third.start)).toBe(WEEKLY_STARTS[2]);
        expect(utc(third.original_start ?? { date: '' })).toBe(WEEKLY_STARTS[2]);
        expect(again.map((i) => i.id)).toEqual(instances.map((i) => i.id));
      });

      it('edits one instance with scope "this", keeping its id', async () => {
        const { instances } = await createWeekly();
        const third = instances[2] as CalendarEvent;

        await provider.updateEvent(
          calendar,
          third.id,
          { summary: 'Moved once', start: at('2026-03-16T11:00:00-04:00'), end: at('2026-03-16T12:00:00-04:00') },
          { scope: 'this' },
        );
        const after = await seriesInstances();

        expect(after.map((i) => i.summary)).toEqual(['Weekly sync', 'Weekly sync', 'Moved once', 'Weekly sync', 'Weekly sync']);
        expect(after.map((i) => utc(i.start))).toEqual([
          WEEKLY_STARTS[0],
          WEEKLY_STARTS[1],
          '2026-03-16T15:00:00.000Z',
          WEEKLY_STARTS[3],
          WEEKLY_STARTS[4],
        ]);
        expect(after[2]?.id).toBe(third.id);
      });

      it('splits the series with scope "following": earlier instances keep the old title and time', async () => {
        const { instances } = await createWeekly();

        const written = await provider.updateEvent(
          calendar,
          instances[2]?.id ?? '',
          { summary: 'Later slot', start: at('2026-03-16T10:00:00-04:00'), end: at('2026-03-16T11:00:00-04:00') },
          { scope: 'following' },
        );
        const after = await seriesInstances();

        expect(utc(written.start)).toBe('2026-03-16T14:00:00.000Z');
        expect(after.map((i) => i.summary)).toEqual(['Weekly sync', 'Weekly sync', 'Later slot', 'Later slot', 'Later slot']);
        expect(after.map((i) => utc(i.start))).toEqual([
          WEEKLY_STARTS[0],
          WEEKLY_STARTS[1],
          '2026-03-16T14:00:00.000Z',
          '2026-03-23T14:00:00.000Z',
          '2026-03-30T14:00:00.000Z',
        ]);
      });

      it('edits every instance with scope "all", moving each by the same local-time change', async () => {
        const { instances } = await createWeekly();

        await provider.updateEvent(
          calendar,
          instances[2]?.id ?? '',
          { summary: 'Renamed', start: at('2026-03-16T09:30:00-04:00'), end: at('2026-03-16T10:30:00-04:00') },
          { scope: 'all' },
        );
        const after = await seriesInstances();

        expect(after.map((i) => i.summary)).toEqual(Array(5).fill('Renamed'));
        expect(after.map((i) => utc(i.start))).toEqual([
          '2026-03-02T14:30:00.000Z',
          '2026-03-09T13:30:00.000Z',
          '2026-03-16T13:30:00.000Z',
          '2026-03-23T13:30:00.000Z',
          '2026-03-30T13:30:00.000Z',
        ]);
      });

      it('deletes one instance with scope "this"', async () => {
        const { instances } = await createWeekly();

        await provider.deleteEvent(calendar, instances[1]?.id ?? '', { scope: 'this' });
        const after = await seriesInstances();

        expect(after.map((i) => utc(i.start))).toEqual([WEEKLY_STARTS[0], ...WEEKLY_STARTS.slice(2)]);
        await expect(provider.getEvent(calendar, instances[1]?.id ?? '')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      });

      it('deletes an instance and the following ones with scope "following"', async () => {
        const { master, instances } = await createWeekly();

        await provider.deleteEvent(calendar, instances[3]?.id ?? '', { scope: 'following' });
        const after = await seriesInstances();

        expect(after.map((i) => utc(i.start))).toEqual(WEEKLY_STARTS.slice(0, 3));
        expect(after.every((i) => i.summary === 'Weekly sync' && i.recurring_event_id === master.id)).toBe(true);
      });

      it('deletes the whole series with scope "following" from its first instance', async () => {
        const { master, instances } = await createWeekly();

        await provider.deleteEvent(calendar, instances[0]?.id ?? '', { scope: 'following' });

        expect(await seriesInstances()).toEqual([]);
        await expect(provider.getEvent(calendar, master.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      });

      it('deletes the whole series with scope "all" from any instance', async () => {
        const { master, instances } = await createWeekly();

        await provider.deleteEvent(calendar, instances[2]?.id ?? '', { scope: 'all' });

        expect(await seriesInstances()).toEqual([]);
        await expect(provider.getEvent(calendar, master.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      });
    });

    describe('concurrency and missing events', () => {
      it('refuses an update with a stale if_match (STALE_WRITE) and accepts the current etag', async () => {
        const created = await provider.createEvent(calendar, {
          summary: 'Contested',
          start: at('2026-03-13T09:00:00-04:00'),
          end: at('2026-03-13T10:00:00-04:00'),
        });
        const first = await provider.updateEvent(calendar, created.id, { summary: 'First writer' }, {
          scope: 'this',
          if_match: created.etag,
        });

        await expect(
          provider.updateEvent(calendar, created.id, { summary: 'Second writer' }, { scope: 'this', if_match: created.etag }),
        ).rejects.toMatchObject({ code: 'STALE_WRITE' });
        expect((await provider.getEvent(calendar, created.id)).summary).toBe('First writer');

        const second = await provider.updateEvent(calendar, created.id, { summary: 'Second writer' }, {
          scope: 'this',
          if_match: first.etag,
        });
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
        await expect(provider.updateEvent(calendar, missing, { summary: 'x' }, { scope: 'this' })).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
        await expect(provider.deleteEvent(calendar, missing, { scope: 'this' })).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
      });
    });
  });
}
