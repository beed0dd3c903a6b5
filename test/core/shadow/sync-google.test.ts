import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blocksTime } from '../../../lambdas/core/calendar/busy-intervals.js';
import type { CalendarRecord } from '../../../lambdas/core/calendar/calendar-registry.js';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import { eventTimeMs } from '../../../lambdas/core/calendar/event-times.js';
import type { CalendarProvider, CalendarRef } from '../../../lambdas/core/ports/index.js';
import { ShadowStore } from '../../../lambdas/core/shadow/shadow-store.js';
import { syncAll } from '../../../lambdas/core/shadow/sync-all.js';
import { type FakeGoogleCalendar, startFakeGoogleCalendar } from '../../support/fake-google-calendar.js';
import type { TestRuntime } from '../../support/test-runtime.js';
import {
  addCalendar,
  addConnection,
  busy,
  type MovableClock,
  movableClock,
  shadowItems,
  startShadowRuntime,
} from './shadow-fixture.js';

const NOW = '2026-06-01T12:00:00Z';
const ZONE = 'America/New_York';
const MONTH = ['2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z'] as const;

const at = (date: string, hour: number) => `${date}T${String(hour).padStart(2, '0')}:00:00-04:00`;
const timed = (summary: string, date: string, from: number, to: number): EventDraft => ({
  summary,
  start: { date_time: at(date, from), time_zone: ZONE },
  end: { date_time: at(date, to), time_zone: ZONE },
});

describe('syncAll with Google calendars (local fake of Calendar v3)', () => {
  let google: FakeGoogleCalendar;
  let runtime: TestRuntime;
  let clock: MovableClock;
  let primary: CalendarRecord;
  let provider: CalendarProvider;
  let ref: CalendarRef;

  beforeEach(async () => {
    google = await startFakeGoogleCalendar({ timeZone: ZONE });
    clock = movableClock(NOW);
    runtime = await startShadowRuntime({ clock, google, defaultTimezone: ZONE });
    await addConnection(
      runtime,
      { connection_id: 'g1', provider: 'google', connection_kind: 'oauth', account: google.email },
      { refresh_token: google.oauth.issueRefreshToken() },
    );
    primary = await addCalendar(runtime, {
      provider: 'google',
      connection_id: 'g1',
      native_id: google.email,
      time_zone: ZONE,
      primary: true,
    });
    ({ provider, ref } = await runtime.calendars.providerFor(primary));
  });

  afterEach(async () => {
    await runtime.close();
    await google.close();
  });

  /** Busy time as the live provider lists it: the independent answer the shadow must match. */
  async function liveBusy(from: string, to: string): Promise<[string, string, string][]> {
    const page = await provider.listEvents(ref, {
      start: from,
      end: to,
      single_events: true,
      max_results: 500,
    });
    return page.events
      .filter((e) => blocksTime(e))
      .map((e): [string, string, string] => [
        new Date(eventTimeMs(e.start, ZONE)).toISOString(),
        new Date(eventTimeMs(e.end, ZONE)).toISOString(),
        e.id,
      ])
      .sort((a, b) => a[0].localeCompare(b[0]) || a[2].localeCompare(b[2]));
  }

  const syncRequests = () => google.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/events'));

  it('copies the window on the first sync, series and cancelled occurrences included', async () => {
    const review = await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    const daily = await provider.createEvent(ref, {
      ...timed('Daily', '2026-06-03', 9, 10),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    await provider.deleteEvent(ref, `${daily.id}_20260604T130000Z`, { scope: 'this' });
    await provider.createEvent(ref, timed('Next year', '2027-06-01', 9, 10));

    const summary = await syncAll(runtime);

    expect(summary).toMatchObject({ synced: 1, failed: 0, upserted: 3, deleted: 0, native: 0 });
    expect(summary.calendars[0]).toMatchObject({ status: 'synced', mode: 'full', reason: 'never synced' });
    const shadow = await busy(runtime, primary.calendar_id, ...MONTH);
    expect(shadow).toEqual({
      synced_at: '2026-06-01T12:00:00.000Z',
      intervals: [
        ['2026-06-03T13:00:00.000Z', '2026-06-03T14:00:00.000Z', `${daily.id}_20260603T130000Z`],
        ['2026-06-05T13:00:00.000Z', '2026-06-05T14:00:00.000Z', `${daily.id}_20260605T130000Z`],
        ['2026-06-10T14:00:00.000Z', '2026-06-10T15:00:00.000Z', review.id],
      ],
    });
    expect(shadow.intervals).toEqual(await liveBusy(...MONTH));
    expect(syncRequests().at(-1)?.query.has('syncToken')).toBe(false);
  });

  it('applies only what changed on the next sync: added, moved, deleted, a cancelled occurrence', async () => {
    const moved = await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    const removed = await provider.createEvent(ref, timed('Lunch', '2026-06-11', 12, 13));
    const daily = await provider.createEvent(ref, {
      ...timed('Daily', '2026-06-03', 9, 10),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    await syncAll(runtime);
    const added = await provider.createEvent(ref, timed('Planning', '2026-06-12', 9, 10));
    await provider.updateEvent(ref, moved.id, timed('Review', '2026-06-10', 14, 15), { scope: 'this' });
    await provider.deleteEvent(ref, removed.id, { scope: 'this' });
    await provider.deleteEvent(ref, `${daily.id}_20260605T130000Z`, { scope: 'this' });
    clock.advance(5 * 60_000);

    const summary = await syncAll(runtime);

    // Upserted: added, moved, and the cancelled occurrence (stored as a cancelled override).
    expect(summary.calendars[0]).toMatchObject({
      status: 'synced',
      mode: 'incremental',
      upserted: 3,
      deleted: 1,
    });
    expect(syncRequests().at(-1)?.query.has('syncToken')).toBe(true);
    const shadow = await busy(runtime, primary.calendar_id, ...MONTH);
    expect(shadow.synced_at).toBe('2026-06-01T12:05:00.000Z');
    expect(shadow.intervals).toEqual([
      ['2026-06-03T13:00:00.000Z', '2026-06-03T14:00:00.000Z', `${daily.id}_20260603T130000Z`],
      ['2026-06-04T13:00:00.000Z', '2026-06-04T14:00:00.000Z', `${daily.id}_20260604T130000Z`],
      ['2026-06-10T18:00:00.000Z', '2026-06-10T19:00:00.000Z', moved.id],
      ['2026-06-12T13:00:00.000Z', '2026-06-12T14:00:00.000Z', added.id],
    ]);
    expect(shadow.intervals).toEqual(await liveBusy(...MONTH));
    const shortEntries = (await shadowItems(runtime, primary.calendar_id)).filter((i) =>
      i.sk.startsWith('EVT#'),
    );
    expect(shortEntries.map((i) => i.event_id).sort()).toEqual([added.id, moved.id].sort());
  });

  it('resyncs in full when Google answers 410 Gone for the stored token', async () => {
    const gone = await provider.createEvent(ref, timed('Gone', '2026-06-10', 10, 11));
    const stays = await provider.createEvent(ref, timed('Stays', '2026-06-11', 10, 11));
    await syncAll(runtime);
    await provider.deleteEvent(ref, gone.id, { scope: 'this' });
    google.invalidateSyncTokens();

    const summary = await syncAll(runtime);

    expect(summary.calendars[0]).toMatchObject({
      status: 'synced',
      mode: 'full',
      reason: 'the provider expired the sync token',
      upserted: 0,
      deleted: 1,
    });
    expect(
      syncRequests()
        .slice(-2)
        .map((r) => r.query.has('syncToken')),
    ).toEqual([true, false]);
    expect((await busy(runtime, primary.calendar_id, ...MONTH)).intervals.map((i) => i[2])).toEqual([
      stays.id,
    ]);
    // The new token works incrementally again.
    expect((await syncAll(runtime)).calendars[0]).toMatchObject({
      mode: 'incremental',
      upserted: 0,
      deleted: 0,
    });
  });

  it('resyncs in full once the window has moved on', async () => {
    await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    await syncAll(runtime);
    clock.advance(6 * 86_400_000);
    expect((await syncAll(runtime)).calendars[0]).toMatchObject({ mode: 'incremental' });
    clock.advance(2 * 86_400_000);

    const summary = await syncAll(runtime);

    expect(summary.calendars[0]).toMatchObject({ mode: 'full', reason: 'window moved on', upserted: 0 });
    const state = await new ShadowStore(runtime.store).readState(primary.calendar_id);
    expect(state).toMatchObject({
      window_from: '2026-05-10T12:00:00.000Z',
      window_to: '2026-12-13T12:00:00.000Z',
    });
  });

  it('keeps syncing the other calendars when one fails, and records the failure', async () => {
    await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    const missing = await addCalendar(runtime, {
      provider: 'google',
      connection_id: 'g1',
      native_id: 'nobody@example.com',
    });

    const summary = await syncAll(runtime);

    expect(summary).toMatchObject({ synced: 1, failed: 1 });
    const failed = summary.calendars.find((c) => c.calendar_id === missing.calendar_id);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'NOT_FOUND' } });
    expect(summary.calendars.find((c) => c.calendar_id === primary.calendar_id)).toMatchObject({
      status: 'synced',
    });
    const state = await new ShadowStore(runtime.store).readState(missing.calendar_id);
    expect(state?.last_error?.code).toBe('NOT_FOUND');
    expect(state?.synced_at).toBeUndefined();
    expect(await runtime.shadow.freshness(missing.calendar_id)).toEqual({});
    expect((await busy(runtime, missing.calendar_id, ...MONTH)).synced_at).toBeUndefined();
  });

  it('ends in the same shadow when the same changes are applied twice', async () => {
    const moved = await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    const removed = await provider.createEvent(ref, timed('Lunch', '2026-06-11', 12, 13));
    const daily = await provider.createEvent(ref, {
      ...timed('Daily', '2026-06-03', 9, 10),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    await syncAll(runtime);
    const shadowStore = new ShadowStore(runtime.store);
    const before = await shadowStore.readState(primary.calendar_id);
    await provider.updateEvent(ref, moved.id, timed('Review', '2026-06-10', 14, 15), { scope: 'this' });
    await provider.deleteEvent(ref, removed.id, { scope: 'this' });
    await provider.deleteEvent(ref, `${daily.id}_20260605T130000Z`, { scope: 'this' });
    await syncAll(runtime);
    const once = await shadowItems(runtime, primary.calendar_id);

    // The old token again: Google hands back the same change set, as after a crash before the state write.
    await shadowStore.writeState(primary.calendar_id, before!);
    const again = await syncAll(runtime);

    expect(again.calendars[0]).toMatchObject({ mode: 'incremental', upserted: 2, deleted: 0 });
    expect(await shadowItems(runtime, primary.calendar_id)).toEqual(once);
  });

  it('shows a recorded booking at once, and keeps one copy after the sync brings it back', async () => {
    await syncAll(runtime);
    const booked = await provider.createEvent(ref, timed('Booked', '2026-06-10', 10, 11));

    await runtime.shadow.recordBooking(primary.calendar_id, booked);

    const expected = [['2026-06-10T14:00:00.000Z', '2026-06-10T15:00:00.000Z', booked.id]];
    expect((await busy(runtime, primary.calendar_id, ...MONTH)).intervals).toEqual(expected);
    expect((await syncAll(runtime)).calendars[0]).toMatchObject({ mode: 'incremental', upserted: 1 });
    expect((await busy(runtime, primary.calendar_id, ...MONTH)).intervals).toEqual(expected);
    const items = await shadowItems(runtime, primary.calendar_id);
    expect(items.map((i) => i.sk.split('#')[0])).toEqual(['EVT', 'IDX']);
    expect(items.every((i) => i.booked_at === undefined)).toBe(true);
  });

  it('skips a calendar another run is syncing', async () => {
    const shadowStore = new ShadowStore(runtime.store);
    expect(await shadowStore.takeLease(primary.calendar_id, 'other-run', clock.now().getTime(), 60_000)).toBe(
      true,
    );

    const summary = await syncAll(runtime);

    expect(summary.calendars[0]).toMatchObject({
      status: 'skipped',
      reason: 'another sync of this calendar is running',
    });
    expect(syncRequests()).toHaveLength(0);
    clock.advance(61_000);
    expect((await syncAll(runtime)).calendars[0]).toMatchObject({ status: 'synced' });
  });
});
