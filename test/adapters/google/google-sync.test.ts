import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import { type GoogleFixture, startGoogleFixture } from './google-fixture.js';

const draft = (summary: string, day: number): EventDraft => ({
  summary,
  start: {
    date_time: `2026-06-${String(day).padStart(2, '0')}T09:00:00-04:00`,
    time_zone: 'America/New_York',
  },
  end: { date_time: `2026-06-${String(day).padStart(2, '0')}T10:00:00-04:00`, time_zone: 'America/New_York' },
});

describe('GoogleCalendarProvider.syncEvents', () => {
  let fixture: GoogleFixture;

  beforeEach(async () => {
    // Google may serve fewer items than asked: a small page forces the adapter to follow page tokens.
    fixture = await startGoogleFixture({ maxPageSize: 50 });
  });
  afterEach(async () => {
    await fixture.close();
  });

  it('returns the whole calendar across pages on the first sync', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 120; i += 1)
      ids.add((await fixture.provider.createEvent(fixture.primary, draft(`E${i}`, 1 + (i % 28)))).id);

    const result = await fixture.provider.syncEvents(fixture.primary);

    expect(result.full_resync).toBe(true);
    expect(result.events).toHaveLength(120);
    expect(new Set(result.events.map((e) => e.id))).toEqual(ids);
    expect(result.deleted_ids).toEqual([]);
    expect(result.next_sync_token).not.toBe('');
    expect(fixture.google.requests.filter((r) => r.method === 'GET')).toHaveLength(3);
  });

  it('returns only what changed since the token, deletions included', async () => {
    const kept = await fixture.provider.createEvent(fixture.primary, draft('Kept', 1));
    const renamed = await fixture.provider.createEvent(fixture.primary, draft('Before', 2));
    const removed = await fixture.provider.createEvent(fixture.primary, draft('Removed', 3));
    const series = await fixture.provider.createEvent(fixture.primary, {
      ...draft('Daily', 4),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    const first = await fixture.provider.syncEvents(fixture.primary);

    const added = await fixture.provider.createEvent(fixture.primary, draft('Added', 5));
    await fixture.provider.updateEvent(fixture.primary, renamed.id, { summary: 'After' }, { scope: 'this' });
    await fixture.provider.deleteEvent(fixture.primary, removed.id, { scope: 'this' });
    const secondInstance = `${series.id}_20260605T130000Z`;
    await fixture.provider.deleteEvent(fixture.primary, secondInstance, { scope: 'this' });
    const second = await fixture.provider.syncEvents(fixture.primary, first.next_sync_token);

    expect(second.full_resync).toBe(false);
    expect(second.events.map((e) => [e.id, e.summary])).toEqual([
      [added.id, 'Added'],
      [renamed.id, 'After'],
    ]);
    expect(second.deleted_ids).toEqual([removed.id, secondInstance]);
    expect(second.events.map((e) => e.id)).not.toContain(kept.id);

    const third = await fixture.provider.syncEvents(fixture.primary, second.next_sync_token);
    expect(third).toMatchObject({ events: [], deleted_ids: [], full_resync: false });
  });

  it('falls back to a full resync when Google answers 410 Gone for the token', async () => {
    const a = await fixture.provider.createEvent(fixture.primary, draft('A', 1));
    const b = await fixture.provider.createEvent(fixture.primary, draft('B', 2));
    const first = await fixture.provider.syncEvents(fixture.primary);
    await fixture.provider.deleteEvent(fixture.primary, a.id, { scope: 'this' });
    fixture.google.invalidateSyncTokens();

    const resync = await fixture.provider.syncEvents(fixture.primary, first.next_sync_token);

    expect(resync.full_resync).toBe(true);
    expect(resync.events.map((e) => e.id)).toEqual([b.id]);
    const syncRequests = fixture.google.requests.filter((r) => r.method === 'GET').slice(-2);
    expect(syncRequests.map((r) => r.query.has('syncToken'))).toEqual([true, false]);

    // The fresh token works incrementally again.
    const c = await fixture.provider.createEvent(fixture.primary, draft('C', 3));
    const next = await fixture.provider.syncEvents(fixture.primary, resync.next_sync_token);
    expect(next).toMatchObject({ full_resync: false, deleted_ids: [] });
    expect(next.events.map((e) => e.id)).toEqual([c.id]);
  });

  it('reports a series as its master plus cancelled instances', async () => {
    const series = await fixture.provider.createEvent(fixture.primary, {
      ...draft('Daily', 8),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    await fixture.provider.deleteEvent(fixture.primary, `${series.id}_20260609T130000Z`, { scope: 'this' });

    const result = await fixture.provider.syncEvents(fixture.primary);

    expect(result.events.map((e) => [e.id, e.recurrence])).toEqual([
      [series.id, ['RRULE:FREQ=DAILY;COUNT=3']],
    ]);
    expect(result.deleted_ids).toEqual([`${series.id}_20260609T130000Z`]);
  });
});
