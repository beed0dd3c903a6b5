import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import type { CalendarRef } from '../../../lambdas/core/ports/index.js';
import { needs, OPENSSL } from '../../support/system-parts.js';
import { type OutlookFixture, startOutlookFixture } from './outlook-fixture.js';

const draft = (summary: string, day: number): EventDraft => ({
  summary,
  start: {
    date_time: `2026-06-${String(day).padStart(2, '0')}T09:00:00-04:00`,
    time_zone: 'America/New_York',
  },
  end: { date_time: `2026-06-${String(day).padStart(2, '0')}T10:00:00-04:00`, time_zone: 'America/New_York' },
});
const JUNE = { fromMs: Date.parse('2026-06-01T00:00:00Z'), toMs: Date.parse('2026-07-01T00:00:00Z') };

/**
 * calendarView/delta rounds against the fake Graph: one fake per file (a new calendar per test
 * keeps them apart), pages of 3 so that every round follows @odata.nextLink.
 */
describe('OutlookCalendarProvider.syncEvents', needs(OPENSSL), () => {
  let fixture: OutlookFixture;
  let calendar: CalendarRef;

  beforeAll(async () => {
    fixture = await startOutlookFixture({ maxPageSize: 3 });
  });
  afterAll(async () => {
    await fixture?.close();
  });
  const freshCalendar = async (name: string) => {
    calendar = fixture.provider.calendarRef({
      ...(await fixture.provider.createCalendar({ name })),
      time_zone: 'America/New_York',
    });
    return calendar;
  };
  const deltaRequests = () => fixture.graph.requests.filter((r) => r.path.endsWith('/calendarView/delta'));

  it('starts a round over the window, follows every page and ends with a delta link', async () => {
    await freshCalendar('first round');
    const ids = new Set<string>();
    for (let day = 1; day <= 8; day += 1)
      ids.add((await fixture.provider.createEvent(calendar, draft(`E${day}`, day))).id);
    await fixture.provider.createEvent(calendar, {
      ...draft('Outside', 1),
      start: { date: '2026-08-01' },
      end: { date: '2026-08-02' },
    });
    const before = deltaRequests().length;

    const result = await fixture.provider.syncEvents(calendar, undefined, JUNE);

    expect(result.full_resync).toBe(true);
    expect(new Set(result.events.map((e) => e.id))).toEqual(ids);
    expect(result.deleted_ids).toEqual([]);
    expect(result.next_sync_token).toContain('$deltatoken=');
    const requests = deltaRequests().slice(before);
    expect(requests).toHaveLength(3);
    expect(requests[0]!.query.get('startDateTime')).toBe('2026-06-01T00:00:00.000Z');
    expect(requests.slice(1).every((r) => r.query.has('$skiptoken'))).toBe(true);
  });

  it('returns adds, changes and deletes since the delta link, and nothing after that', async () => {
    await freshCalendar('incremental');
    const kept = await fixture.provider.createEvent(calendar, draft('Kept', 1));
    const renamed = await fixture.provider.createEvent(calendar, draft('Before', 2));
    const removed = await fixture.provider.createEvent(calendar, draft('Removed', 3));
    const first = await fixture.provider.syncEvents(calendar, undefined, JUNE);

    const added = await fixture.provider.createEvent(calendar, draft('Added', 5));
    await fixture.provider.updateEvent(calendar, renamed.id, { summary: 'After' }, { scope: 'this' });
    await fixture.provider.deleteEvent(calendar, removed.id, { scope: 'this' });
    const second = await fixture.provider.syncEvents(calendar, first.next_sync_token);

    expect(second.full_resync).toBe(false);
    expect(second.events.map((e) => [e.id, e.summary]).sort()).toEqual(
      [
        [added.id, 'Added'],
        [renamed.id, 'After'],
      ].sort(),
    );
    expect(second.deleted_ids).toEqual([removed.id]);
    expect(second.events.map((e) => e.id)).not.toContain(kept.id);
    expect(second.events.find((e) => e.id === added.id)?.start).toEqual(draft('', 5).start);

    const third = await fixture.provider.syncEvents(calendar, second.next_sync_token);
    expect(third).toMatchObject({ events: [], deleted_ids: [], full_resync: false });
  });

  it.each(['syncStateNotFound', 'resyncRequired'] as const)(
    'starts a new round over the window when Graph answers 410 %s for the link',
    async (code) => {
      await freshCalendar(`expired ${code}`);
      const a = await fixture.provider.createEvent(calendar, draft('A', 1));
      const b = await fixture.provider.createEvent(calendar, draft('B', 2));
      const first = await fixture.provider.syncEvents(calendar, undefined, JUNE);
      await fixture.provider.deleteEvent(calendar, a.id, { scope: 'this' });
      fixture.graph.expireDeltaTokens(code);
      const before = deltaRequests().length;

      const resync = await fixture.provider.syncEvents(calendar, first.next_sync_token, JUNE);

      expect(resync.full_resync).toBe(true);
      expect(resync.events.map((e) => e.id)).toEqual([b.id]);
      expect(
        deltaRequests()
          .slice(before)
          .map((r) => r.query.has('$deltatoken')),
      ).toEqual([true, false]);
      const c = await fixture.provider.createEvent(calendar, draft('C', 3));
      const next = await fixture.provider.syncEvents(calendar, resync.next_sync_token);
      expect(next).toMatchObject({ full_resync: false, deleted_ids: [] });
      expect(next.events.map((e) => e.id)).toEqual([c.id]);
    },
  );

  it('waits out a throttled page for as long as Retry-After says, through the retry loop', async () => {
    await freshCalendar('throttled');
    for (let day = 1; day <= 5; day += 1) await fixture.provider.createEvent(calendar, draft(`T${day}`, day));
    const pausesBefore = fixture.pauses.length;
    fixture.graph.injectFaults('throttled', 2, { method: 'GET', retryAfterSeconds: 7 });

    const result = await fixture.provider.syncEvents(calendar, undefined, JUNE);

    expect(result.events).toHaveLength(5);
    expect(fixture.pauses.slice(pausesBefore)).toEqual([7000, 7000]);
  });

  it('answers PROVIDER_RATE_LIMITED when throttling outlasts the attempts', async () => {
    await freshCalendar('always throttled');
    fixture.graph.injectFaults('throttled', 5, { method: 'GET', retryAfterSeconds: 1 });

    await expect(fixture.provider.syncEvents(calendar, undefined, JUNE)).rejects.toMatchObject({
      code: 'PROVIDER_RATE_LIMITED',
    });
  });
});
