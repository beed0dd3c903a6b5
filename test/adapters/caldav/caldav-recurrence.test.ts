import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarEvent } from '../../../lambdas/core/calendar/event.js';
import type { CalendarRef } from '../../../lambdas/core/ports/index.js';
import { type RadicaleServer, startRadicale } from '../../support/radicale.js';
import { needs, RADICALE } from '../../support/system-parts.js';
import { PASSWORD, providerFor, rawGet, rawPut, USER } from './caldav-test-kit.js';

let radicale: RadicaleServer;

beforeAll(async () => {
  radicale = await startRadicale({ [USER]: PASSWORD });
});

afterAll(async () => {
  await radicale?.stop();
});

/** Ids handed out in order: calendar name first, then event UIDs. */
function ids(...values: string[]): () => string {
  return () => values.shift() ?? `extra-${Math.random()}`;
}

const MARCH_APRIL = {
  start: '2026-03-01T00:00:00Z',
  end: '2026-05-01T00:00:00Z',
  single_events: true,
  max_results: 100,
};

/**
 * Weekly on Mondays, 09:00–09:30 New York, six times from 2 March 2026. DST starts on 8 March,
 * so the first occurrence is 14:00Z and the rest 13:00Z.
 */
async function weeklySeries(calendarName: string, extraIds: string[] = []) {
  const provider = providerFor(radicale, { newId: ids(calendarName, 'standup', ...extraIds) });
  const created = await provider.createCalendar({ name: calendarName, time_zone: 'America/New_York' });
  const calendar = provider.calendarRef(created);
  const master = await provider.createEvent(calendar, {
    summary: 'Standup',
    start: { date_time: '2026-03-02T09:00:00-05:00', time_zone: 'America/New_York' },
    end: { date_time: '2026-03-02T09:30:00-05:00', time_zone: 'America/New_York' },
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6'],
  });
  return { provider, calendar, master };
}

function summaryOf(events: CalendarEvent[]) {
  return events.map(
    (e) => `${e.id} ${e.start && 'date_time' in e.start ? e.start.date_time : ''} ${e.summary}`,
  );
}

async function stored(calendar: CalendarRef, uid: string): Promise<string> {
  const response = await rawGet(radicale, `/${encodeURIComponent(USER)}/${calendar.native_id}/${uid}.ics`);
  return response.status === 404 ? '' : (await response.text()).replace(/\r\n[ \t]/g, '');
}

describe('CalDavCalendarProvider recurring series', needs(RADICALE), () => {
  describe('listEvents', () => {
    it('expands the series client-side at 09:00 New York wall time across the DST change', async () => {
      const { provider, calendar, master } = await weeklySeries('rec-list');

      const page = await provider.listEvents(calendar, MARCH_APRIL);

      expect(summaryOf(page.events)).toEqual([
        'standup_20260302T140000Z 2026-03-02T09:00:00-05:00 Standup',
        'standup_20260309T130000Z 2026-03-09T09:00:00-04:00 Standup',
        'standup_20260316T130000Z 2026-03-16T09:00:00-04:00 Standup',
        'standup_20260323T130000Z 2026-03-23T09:00:00-04:00 Standup',
        'standup_20260330T130000Z 2026-03-30T09:00:00-04:00 Standup',
        'standup_20260406T130000Z 2026-04-06T09:00:00-04:00 Standup',
      ]);
      expect(page.events.every((e) => e.recurring_event_id === 'standup' && e.etag === master.etag)).toBe(
        true,
      );
      expect(page.events[1]?.end).toEqual({
        date_time: '2026-03-09T09:30:00-04:00',
        time_zone: 'America/New_York',
      });
    });

    it('finds occurrences far from DTSTART (Radicale applies time-range to the RRULE) and only those in the window', async () => {
      const { provider, calendar } = await weeklySeries('rec-window');

      const page = await provider.listEvents(calendar, {
        ...MARCH_APRIL,
        start: '2026-03-30T13:15:00Z',
        end: '2026-04-06T13:00:00Z',
      });

      expect(page.events.map((e) => e.id)).toEqual(['standup_20260330T130000Z']);
    });

    it('returns the stored master once when single_events is false', async () => {
      const { provider, calendar } = await weeklySeries('rec-masters');

      const page = await provider.listEvents(calendar, { ...MARCH_APRIL, single_events: false });

      expect(page.events).toHaveLength(1);
      expect(page.events[0]).toMatchObject({
        id: 'standup',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6'],
      });
    });

    it('gets one generated occurrence by its instance id', async () => {
      const { provider, calendar } = await weeklySeries('rec-get');

      const instance = await provider.getEvent(calendar, 'standup_20260323T130000Z');

      expect(instance).toMatchObject({
        id: 'standup_20260323T130000Z',
        recurring_event_id: 'standup',
        start: { date_time: '2026-03-23T09:00:00-04:00', time_zone: 'America/New_York' },
        original_start: { date_time: '2026-03-23T09:00:00-04:00', time_zone: 'America/New_York' },
      });
      await expect(provider.getEvent(calendar, 'standup_20260324T130000Z')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });
  });

  describe('updateEvent', () => {
    it('scope this: moves one occurrence into an override VEVENT; the others stay', async () => {
      const { provider, calendar, master } = await weeklySeries('rec-this');

      const written = await provider.updateEvent(
        calendar,
        'standup_20260316T130000Z',
        {
          summary: 'Standup (late)',
          start: { date_time: '2026-03-16T11:00:00-04:00', time_zone: 'America/New_York' },
          end: { date_time: '2026-03-16T11:30:00-04:00', time_zone: 'America/New_York' },
        },
        { scope: 'this', if_match: master.etag },
      );
      const page = await provider.listEvents(calendar, MARCH_APRIL);

      expect(written).toMatchObject({ id: 'standup_20260316T130000Z', summary: 'Standup (late)' });
      expect(summaryOf(page.events)).toEqual([
        'standup_20260302T140000Z 2026-03-02T09:00:00-05:00 Standup',
        'standup_20260309T130000Z 2026-03-09T09:00:00-04:00 Standup',
        'standup_20260316T130000Z 2026-03-16T11:00:00-04:00 Standup (late)',
        'standup_20260323T130000Z 2026-03-23T09:00:00-04:00 Standup',
        'standup_20260330T130000Z 2026-03-30T09:00:00-04:00 Standup',
        'standup_20260406T130000Z 2026-04-06T09:00:00-04:00 Standup',
      ]);
      expect(await stored(calendar, 'standup')).toContain(
        'RECURRENCE-ID;TZID=America/New_York:20260316T090000',
      );
    });

    it('scope all via an instance: shifts every occurrence by the same wall-clock change', async () => {
      const { provider, calendar } = await weeklySeries('rec-all');

      await provider.updateEvent(
        calendar,
        'standup_20260323T130000Z',
        {
          summary: 'Standup v2',
          start: { date_time: '2026-03-23T10:00:00-04:00', time_zone: 'America/New_York' },
          end: { date_time: '2026-03-23T10:30:00-04:00', time_zone: 'America/New_York' },
        },
        { scope: 'all' },
      );
      const page = await provider.listEvents(calendar, MARCH_APRIL);

      expect(summaryOf(page.events)).toEqual([
        'standup_20260302T150000Z 2026-03-02T10:00:00-05:00 Standup v2',
        'standup_20260309T140000Z 2026-03-09T10:00:00-04:00 Standup v2',
        'standup_20260316T140000Z 2026-03-16T10:00:00-04:00 Standup v2',
        'standup_20260323T140000Z 2026-03-23T10:00:00-04:00 Standup v2',
        'standup_20260330T140000Z 2026-03-30T10:00:00-04:00 Standup v2',
        'standup_20260406T140000Z 2026-04-06T10:00:00-04:00 Standup v2',
      ]);
    });

    it('scope following: truncates the series before the occurrence and creates a new series from it', async () => {
      const { provider, calendar } = await weeklySeries('rec-following', ['standup-tail']);

      const written = await provider.updateEvent(
        calendar,
        'standup_20260323T130000Z',
        { summary: 'Standup (new team)' },
        { scope: 'following' },
      );
      const page = await provider.listEvents(calendar, MARCH_APRIL);

      expect(written).toMatchObject({
        id: 'standup-tail',
        summary: 'Standup (new team)',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3'],
      });
      expect(summaryOf(page.events)).toEqual([
        'standup_20260302T140000Z 2026-03-02T09:00:00-05:00 Standup',
        'standup_20260309T130000Z 2026-03-09T09:00:00-04:00 Standup',
        'standup_20260316T130000Z 2026-03-16T09:00:00-04:00 Standup',
        'standup-tail_20260323T130000Z 2026-03-23T09:00:00-04:00 Standup (new team)',
        'standup-tail_20260330T130000Z 2026-03-30T09:00:00-04:00 Standup (new team)',
        'standup-tail_20260406T130000Z 2026-04-06T09:00:00-04:00 Standup (new team)',
      ]);
      expect(await stored(calendar, 'standup')).toContain('RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3');
      expect(await stored(calendar, 'standup-tail')).toContain(
        'DTSTART;TZID=America/New_York:20260323T090000',
      );
    });

    it('scope following: removes the new series again when the old one changed meanwhile', async () => {
      const { calendar } = await weeklySeries('rec-following-stale');
      const path = `/${encodeURIComponent(USER)}/${calendar.native_id}/standup.ics`;
      let puts = 0;
      const racing = providerFor(radicale, {
        newId: () => 'orphan-tail',
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          // Right after the new series is written, another client edits the old one.
          if (init?.method === 'PUT' && ++puts === 1) {
            const current = await (await rawGet(radicale, path)).text();
            await rawPut(radicale, path, current.replace('SUMMARY:Standup', 'SUMMARY:Edited elsewhere'));
          }
          return response;
        },
      });

      const attempt = racing.updateEvent(
        calendar,
        'standup_20260323T130000Z',
        { summary: 'x' },
        { scope: 'following' },
      );

      await expect(attempt).rejects.toMatchObject({ code: 'STALE_WRITE' });
      expect(puts).toBe(2);
      expect(await stored(calendar, 'orphan-tail')).toBe('');
      expect(await stored(calendar, 'standup')).toContain('SUMMARY:Edited elsewhere');
    });

    it('refuses an instance edit with a stale etag', async () => {
      const { provider, calendar, master } = await weeklySeries('rec-stale');
      await provider.updateEvent(
        calendar,
        'standup',
        { summary: 'renamed' },
        { scope: 'all', if_match: master.etag },
      );

      const attempt = provider.updateEvent(
        calendar,
        'standup_20260309T130000Z',
        { summary: 'x' },
        { scope: 'this', if_match: master.etag },
      );

      await expect(attempt).rejects.toMatchObject({ code: 'STALE_WRITE' });
    });
  });

  describe('deleteEvent', () => {
    it('scope this: excludes one occurrence with an EXDATE', async () => {
      const { provider, calendar } = await weeklySeries('rec-del-this');

      await provider.deleteEvent(calendar, 'standup_20260309T130000Z', { scope: 'this' });
      const page = await provider.listEvents(calendar, MARCH_APRIL);

      expect(page.events.map((e) => e.id)).toEqual([
        'standup_20260302T140000Z',
        'standup_20260316T130000Z',
        'standup_20260323T130000Z',
        'standup_20260330T130000Z',
        'standup_20260406T130000Z',
      ]);
      expect(await stored(calendar, 'standup')).toContain('EXDATE;TZID=America/New_York:20260309T090000');
    });

    it('scope following: ends the series before the occurrence', async () => {
      const { provider, calendar } = await weeklySeries('rec-del-following');

      await provider.deleteEvent(calendar, 'standup_20260323T130000Z', { scope: 'following' });
      const page = await provider.listEvents(calendar, MARCH_APRIL);

      expect(page.events.map((e) => e.id)).toEqual([
        'standup_20260302T140000Z',
        'standup_20260309T130000Z',
        'standup_20260316T130000Z',
      ]);
    });

    it('scope following from the first occurrence, and scope all, delete the whole resource', async () => {
      const first = await weeklySeries('rec-del-first');
      const all = await weeklySeries('rec-del-all');

      await first.provider.deleteEvent(first.calendar, 'standup_20260302T140000Z', { scope: 'following' });
      await all.provider.deleteEvent(all.calendar, 'standup_20260316T130000Z', { scope: 'all' });

      expect(await stored(first.calendar, 'standup')).toBe('');
      expect(await stored(all.calendar, 'standup')).toBe('');
    });
  });

  it('turns a one-off event into a series when an update adds a recurrence', async () => {
    const provider = providerFor(radicale, { newId: ids('rec-promote', 'review') });
    const calendar = provider.calendarRef(await provider.createCalendar({ name: 'rec-promote' }));
    const single = await provider.createEvent(calendar, {
      summary: 'Review',
      start: { date_time: '2026-03-02T09:00:00Z' },
      end: { date_time: '2026-03-02T10:00:00Z' },
    });

    await provider.updateEvent(
      calendar,
      'review',
      { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] },
      { scope: 'all', if_match: single.etag },
    );
    const page = await provider.listEvents(calendar, MARCH_APRIL);

    expect(page.events.map((e) => e.id)).toEqual(['review_20260302T090000Z', 'review_20260303T090000Z']);
  });

  it('refuses a rule it cannot expand with INVALID_RRULE and stores nothing', async () => {
    const provider = providerFor(radicale, { newId: ids('rec-invalid', 'bad-rule') });
    const calendar = provider.calendarRef(await provider.createCalendar({ name: 'rec-invalid' }));

    const attempt = provider.createEvent(calendar, {
      summary: 'Never',
      start: { date_time: '2026-03-02T09:00:00Z' },
      end: { date_time: '2026-03-02T10:00:00Z' },
      recurrence: ['RRULE:FREQ=SOMETIMES'],
    });

    await expect(attempt).rejects.toMatchObject({ code: 'INVALID_RRULE' });
    expect(await stored(calendar, 'bad-rule')).toBe('');
  });

  it('expands an all-day daily series with date instance ids', async () => {
    const provider = providerFor(radicale, { newId: ids('rec-allday', 'trip') });
    const calendar = provider.calendarRef(await provider.createCalendar({ name: 'rec-allday' }));
    await provider.createEvent(calendar, {
      summary: 'Trip',
      start: { date: '2026-03-10' },
      end: { date: '2026-03-11' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });

    const page = await provider.listEvents(calendar, MARCH_APRIL);

    expect(page.events.map((e) => [e.id, e.start])).toEqual([
      ['trip_20260310', { date: '2026-03-10' }],
      ['trip_20260311', { date: '2026-03-11' }],
      ['trip_20260312', { date: '2026-03-12' }],
    ]);
  });
});
