import { beforeEach, describe, expect, it } from 'vitest';
import type { CalendarEvent, EventDraft } from '../../lambdas/core/calendar/event.js';
import type { CalendarProvider, CalendarRef, EventQuery } from '../../lambdas/core/ports/index.js';
import { at, type ContractSubject, listAllEvents, utc } from './calendar-provider-contract-support.js';

/**
 * Contract for recurring series: expansion, and edits and deletions with scope this / following /
 * all, checked instance by instance.
 *
 * Expected instants are written out by hand: the weekly series starts on 2026-03-02 at 09:00
 * America/New_York (EST, UTC-5); US daylight saving time starts on 2026-03-08, so from the second
 * instance on, 09:00 local is 13:00 UTC (cross-checked with Python's dateutil.rrule and zoneinfo).
 */

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
 * Registers the recurring-series part of the contract.
 *
 * @example
 * describeSeriesContract(() => subject); // inside describeCalendarProviderContract
 */
export function describeSeriesContract(current: () => ContractSubject): void {
  let provider: CalendarProvider;
  let calendar: CalendarRef;
  beforeEach(() => {
    ({ provider, calendar } = current());
  });
  const listAll = (window: { start: string; end: string }, extra: Partial<EventQuery> = {}) =>
    listAllEvents(provider, calendar, window, extra);
  const seriesInstances = () => listAll(SERIES_WINDOW);

  async function createWeekly(): Promise<{ master: CalendarEvent; instances: CalendarEvent[] }> {
    const master = await provider.createEvent(calendar, WEEKLY);
    const instances = await seriesInstances();
    expect(instances.map((i) => utc(i.start))).toEqual(WEEKLY_STARTS);
    return { master, instances };
  }

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

    it('pages through endless series, edited and cancelled occurrences and a text filter as one page shows them', async () => {
      // Two endless series (a page needs a few occurrences of each, not the window's hundreds),
      // one occurrence moved past later ones, one cancelled, one one-off event among them.
      const daily = await provider.createEvent(calendar, {
        summary: 'Daily standup',
        start: at('2026-03-02T09:00:00-05:00'),
        end: at('2026-03-02T09:15:00-05:00'),
        recurrence: ['RRULE:FREQ=DAILY'],
      });
      const hourly = (current().finestFrequency ?? 'HOURLY') === 'HOURLY';
      await provider.createEvent(calendar, {
        summary: 'Hourly ping',
        start: at('2026-03-02T08:00:00-05:00'),
        end: at('2026-03-02T08:05:00-05:00'),
        recurrence: [hourly ? 'RRULE:FREQ=HOURLY;INTERVAL=5' : 'RRULE:FREQ=DAILY'],
      });
      await provider.createEvent(calendar, {
        summary: 'Standup retro',
        start: at('2026-03-04T10:00:00-05:00'),
        end: at('2026-03-04T10:30:00-05:00'),
      });
      const window = { start: '2026-03-01T00:00:00Z', end: '2026-03-12T00:00:00Z' };
      const dailies = (await listAll(window, { query: 'daily', max_results: 1000 })).filter(
        (e) => e.recurring_event_id === daily.id,
      );
      await provider.updateEvent(
        calendar,
        dailies[1]!.id,
        { start: at('2026-03-06T18:00:00-05:00'), end: at('2026-03-06T18:15:00-05:00') },
        { scope: 'this' },
      );
      await provider.updateEvent(calendar, dailies[3]!.id, { status: 'cancelled' }, { scope: 'this' });

      for (const extra of [{}, { query: 'standup' }]) {
        const whole = await listAll(window, { ...extra, max_results: 1000 });
        const paged = await listAll(window, { ...extra, max_results: 3 });

        expect(paged.map((e) => e.id)).toEqual(whole.map((e) => e.id));
      }
      const standups = await listAll(window, { query: 'standup', max_results: 2 });
      expect(standups.map((e) => e.summary)).toContain('Standup retro');
      expect(standups.some((e) => e.id === dailies[3]!.id)).toBe(false);
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
        {
          summary: 'Moved once',
          start: at('2026-03-16T11:00:00-04:00'),
          end: at('2026-03-16T12:00:00-04:00'),
        },
        { scope: 'this' },
      );
      const after = await seriesInstances();

      expect(after.map((i) => i.summary)).toEqual([
        'Weekly sync',
        'Weekly sync',
        'Moved once',
        'Weekly sync',
        'Weekly sync',
      ]);
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
        {
          summary: 'Later slot',
          start: at('2026-03-16T10:00:00-04:00'),
          end: at('2026-03-16T11:00:00-04:00'),
        },
        { scope: 'following' },
      );
      const after = await seriesInstances();

      expect(utc(written.start)).toBe('2026-03-16T14:00:00.000Z');
      expect(after.map((i) => i.summary)).toEqual([
        'Weekly sync',
        'Weekly sync',
        'Later slot',
        'Later slot',
        'Later slot',
      ]);
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
        {
          summary: 'Renamed',
          start: at('2026-03-16T09:30:00-04:00'),
          end: at('2026-03-16T10:30:00-04:00'),
        },
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
      await expect(provider.getEvent(calendar, instances[1]?.id ?? '')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('deletes an instance and the following ones with scope "following"', async () => {
      const { master, instances } = await createWeekly();

      await provider.deleteEvent(calendar, instances[3]?.id ?? '', { scope: 'following' });
      const after = await seriesInstances();

      expect(after.map((i) => utc(i.start))).toEqual(WEEKLY_STARTS.slice(0, 3));
      expect(after.every((i) => i.summary === 'Weekly sync' && i.recurring_event_id === master.id)).toBe(
        true,
      );
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
}
