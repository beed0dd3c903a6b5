import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import { type GoogleFixture, startGoogleFixture } from './google-fixture.js';

/**
 * What the Google adapter writes for scoped edits: the RRULE text on both halves of a split, the
 * instance ids Google uses, and the compensation when a split fails halfway.
 */

const NY = 'America/New_York';
const weekly = (rule: string): EventDraft => ({
  summary: 'Weekly sync',
  start: { date_time: '2026-03-02T09:00:00-05:00', time_zone: NY },
  end: { date_time: '2026-03-02T10:00:00-05:00', time_zone: NY },
  recurrence: [rule],
});
const WINDOW = {
  start: '2026-03-01T00:00:00Z',
  end: '2026-06-01T00:00:00Z',
  single_events: true,
  max_results: 100,
};

describe('GoogleCalendarProvider recurring series', () => {
  let fixture: GoogleFixture;

  beforeEach(async () => {
    fixture = await startGoogleFixture();
  });
  afterEach(async () => {
    await fixture.close();
  });

  const instances = async () => (await fixture.provider.listEvents(fixture.primary, WINDOW)).events;
  const master = (id: string) => fixture.provider.getEvent(fixture.primary, id);

  it('names instances <series id>_<original start in basic UTC>', async () => {
    const series = await fixture.provider.createEvent(fixture.primary, weekly('RRULE:FREQ=WEEKLY;COUNT=3'));

    expect((await instances()).map((i) => i.id)).toEqual([
      `${series.id}_20260302T140000Z`,
      `${series.id}_20260309T130000Z`,
      `${series.id}_20260316T130000Z`,
    ]);
  });

  describe('scope "following"', () => {
    it('ends the master with UNTIL one second before the instance and gives the rest of COUNT to the new series', async () => {
      const series = await fixture.provider.createEvent(fixture.primary, weekly('RRULE:FREQ=WEEKLY;COUNT=5'));

      const created = await fixture.provider.updateEvent(
        fixture.primary,
        `${series.id}_20260316T130000Z`,
        { summary: 'Renamed' },
        { scope: 'following' },
      );

      expect((await master(series.id)).recurrence).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20260316T125959Z']);
      expect(created.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3']);
      expect(created.start).toEqual({ date_time: '2026-03-16T09:00:00-04:00', time_zone: NY });
      expect(created.end).toEqual({ date_time: '2026-03-16T10:00:00-04:00', time_zone: NY });
    });

    it('keeps the series zone when the patch moves the times without naming a zone', async () => {
      const series = await fixture.provider.createEvent(fixture.primary, weekly('RRULE:FREQ=WEEKLY;COUNT=3'));

      const created = await fixture.provider.updateEvent(
        fixture.primary,
        `${series.id}_20260309T130000Z`,
        { start: { date_time: '2026-03-09T15:00:00Z' }, end: { date_time: '2026-03-09T16:00:00Z' } },
        { scope: 'following' },
      );

      expect(created.start).toEqual({ date_time: '2026-03-09T11:00:00-04:00', time_zone: NY });
      expect((await instances()).map((i) => i.start)).toEqual([
        { date_time: '2026-03-02T09:00:00-05:00', time_zone: NY },
        { date_time: '2026-03-09T11:00:00-04:00', time_zone: NY },
        { date_time: '2026-03-16T11:00:00-04:00', time_zone: NY },
      ]);
    });

    it('counts a cancelled instance before the split towards COUNT', async () => {
      const series = await fixture.provider.createEvent(fixture.primary, weekly('RRULE:FREQ=WEEKLY;COUNT=5'));
      await fixture.provider.deleteEvent(fixture.primary, `${series.id}_20260309T130000Z`, { scope: 'this' });

      const created = await fixture.provider.updateEvent(
        fixture.primary,
        `${series.id}_20260323T130000Z`,
        { summary: 'Last two' },
        { scope: 'following' },
      );

      expect(created.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=2']);
      expect((await instances()).map((i) => [i.start, i.summary])).toEqual([
        [{ date_time: '2026-03-02T09:00:00-05:00', time_zone: NY }, 'Weekly sync'],
        [{ date_time: '2026-03-16T09:00:00-04:00', time_zone: NY }, 'Weekly sync'],
        [{ date_time: '2026-03-23T09:00:00-04:00', time_zone: NY }, 'Last two'],
        [{ date_time: '2026-03-30T09:00:00-04:00', time_zone: NY }, 'Last two'],
      ]);
    });

    it('keeps an UNTIL series ending where it ended', async () => {
      const series = await fixture.provider.createEvent(
        fixture.primary,
        weekly('RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260323T235959Z'),
      );

      const created = await fixture.provider.updateEvent(
        fixture.primary,
        `${series.id}_20260316T130000Z`,
        { location: 'Room 2' },
        { scope: 'following' },
      );

      expect(created.recurrence).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260323T235959Z']);
      expect((await master(series.id)).recurrence).toEqual([
        'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260316T125959Z',
      ]);
      expect((await instances()).map((i) => i.location ?? '-')).toEqual(['-', '-', 'Room 2', 'Room 2']);
    });

    it('splits an all-day series with a date-valued UNTIL', async () => {
      const series = await fixture.provider.createEvent(fixture.primary, {
        summary: 'On call',
        start: { date: '2026-03-02' },
        end: { date: '2026-03-03' },
        recurrence: ['RRULE:FREQ=DAILY;COUNT=4'],
      });

      await fixture.provider.updateEvent(
        fixture.primary,
        `${series.id}_20260304`,
        { summary: 'Backup' },
        {
          scope: 'following',
        },
      );

      expect((await master(series.id)).recurrence).toEqual(['RRULE:FREQ=DAILY;UNTIL=20260303']);
      expect((await instances()).map((i) => [i.start, i.end, i.summary])).toEqual([
        [{ date: '2026-03-02' }, { date: '2026-03-03' }, 'On call'],
        [{ date: '2026-03-03' }, { date: '2026-03-04' }, 'On call'],
        [{ date: '2026-03-04' }, { date: '2026-03-05' }, 'Backup'],
        [{ date: '2026-03-05' }, { date: '2026-03-06' }, 'Backup'],
      ]);
    });

    it('removes the new series again when ending the old one fails', async () => {
      const series = await fixture.provider.createEvent(fixture.primary, weekly('RRULE:FREQ=WEEKLY;COUNT=5'));
      fixture.google.injectFaults('serverError', 5, { method: 'PATCH' });

      const split = fixture.provider.updateEvent(
        fixture.primary,
        `${series.id}_20260316T130000Z`,
        { summary: 'X' },
        {
          scope: 'following',
        },
      );

      await expect(split).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
      const after = await instances();
      expect(after.map((i) => i.summary)).toEqual(Array(5).fill('Weekly sync'));
      expect(after.every((i) => i.recurring_event_id === series.id)).toBe(true);
    });
  });

  describe('scope "all"', () => {
    it('patches the master without a time change when the patch has none', async () => {
      const series = await fixture.provider.createEvent(fixture.primary, weekly('RRULE:FREQ=WEEKLY;COUNT=3'));

      const written = await fixture.provider.updateEvent(
        fixture.primary,
        `${series.id}_20260309T130000Z`,
        { description: 'Agenda in the doc' },
        { scope: 'all' },
      );

      expect(written.id).toBe(series.id);
      expect(written.start).toEqual(series.start);
      expect((await instances()).map((i) => i.description)).toEqual(Array(3).fill('Agenda in the doc'));
    });

    it('refuses a stale if_match before writing anything', async () => {
      const series = await fixture.provider.createEvent(fixture.primary, weekly('RRULE:FREQ=WEEKLY;COUNT=3'));
      const [first] = await instances();
      await fixture.provider.updateEvent(
        fixture.primary,
        series.id,
        { summary: 'Changed elsewhere' },
        { scope: 'all' },
      );
      const writesBefore = fixture.google.requests.filter((r) => r.method !== 'GET').length;

      await expect(
        fixture.provider.updateEvent(
          fixture.primary,
          first?.id ?? '',
          { summary: 'Mine' },
          {
            scope: 'all',
            if_match: first?.etag,
          },
        ),
      ).rejects.toMatchObject({ code: 'STALE_WRITE' });
      expect(fixture.google.requests.filter((r) => r.method !== 'GET').length).toBe(writesBefore);
    });

    it('moves an all-day series by whole days', async () => {
      const series = await fixture.provider.createEvent(fixture.primary, {
        summary: 'Sprint day',
        start: { date: '2026-03-02' },
        end: { date: '2026-03-03' },
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2'],
      });

      await fixture.provider.updateEvent(
        fixture.primary,
        `${series.id}_20260309`,
        { start: { date: '2026-03-10' }, end: { date: '2026-03-11' } },
        { scope: 'all' },
      );

      expect((await instances()).map((i) => i.start)).toEqual([
        { date: '2026-03-03' },
        { date: '2026-03-10' },
      ]);
    });
  });

  describe('delete with scope "following"', () => {
    it('ends the series with UNTIL, dropping COUNT', async () => {
      const series = await fixture.provider.createEvent(fixture.primary, weekly('RRULE:FREQ=WEEKLY;COUNT=5'));

      await fixture.provider.deleteEvent(fixture.primary, `${series.id}_20260323T130000Z`, {
        scope: 'following',
      });

      expect((await master(series.id)).recurrence).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20260323T125959Z']);
      expect(await instances()).toHaveLength(3);
    });
  });
});
