import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksTime } from '../../../lambdas/core/calendar/busy-intervals.js';
import type { CalendarRecord } from '../../../lambdas/core/calendar/calendar-registry.js';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import { eventTimeMs } from '../../../lambdas/core/calendar/event-times.js';
import type { CalendarProvider, CalendarRef } from '../../../lambdas/core/ports/index.js';
import { ShadowStore } from '../../../lambdas/core/shadow/shadow-store.js';
import { syncCalendar } from '../../../lambdas/core/shadow/sync-calendar.js';
import { parseEnvironment } from '../../../lambdas/runtime/environment.js';
import { providerFactories } from '../../../lambdas/runtime/provider-factories.js';
import { secretContext } from '../../../lambdas/runtime/provider-resolver.js';
import { listAllEvents } from '../../adapters/calendar-provider-contract-support.js';
import { type FakeGraph, startFakeGraph } from '../../support/fake-graph.js';
import { needs, OPENSSL } from '../../support/system-parts.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';
import { addCalendar, addConnection, busy, type MovableClock, movableClock } from './shadow-fixture.js';

const NOW = '2026-06-01T12:00:00Z';
const ZONE = 'America/New_York';
const MONTH = ['2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z'] as const;
const at = (date: string, hour: number) => `${date}T${String(hour).padStart(2, '0')}:00:00-04:00`;
const timed = (summary: string, date: string, from: number, to: number): EventDraft => ({
  summary,
  start: { date_time: at(date, from), time_zone: ZONE },
  end: { date_time: at(date, to), time_zone: ZONE },
});

/**
 * The shadow calendar's sync engine (syncCalendar) with an Outlook connection: the provider
 * factory, MSAL against the fake identity platform and calendarView/delta against the fake Graph.
 * One runtime and one fake for the file; each test syncs a calendar of its own.
 */
describe('syncCalendar with Outlook calendars (fake Microsoft Graph)', needs(OPENSSL), () => {
  let graph: FakeGraph;
  let runtime: TestRuntime;
  let clock: MovableClock;

  let firstRefreshToken: string;
  let env: ReturnType<typeof parseEnvironment>;

  beforeAll(async () => {
    graph = await startFakeGraph({ maxPageSize: 2 });
    firstRefreshToken = graph.identity.issueRefreshToken();
    clock = movableClock(NOW);
    env = parseEnvironment({
      MERIDIAN_OUTLOOK_CLIENT_ID: graph.identity.clientId,
      MERIDIAN_OUTLOOK_AUTHORITY: graph.identity.authority,
      MERIDIAN_OUTLOOK_GRAPH_ROOT: graph.root,
    });
    runtime = await startTestRuntime({ clock, defaultTimezone: ZONE, factories: providerFactories(env) });
    await addConnection(
      runtime,
      { connection_id: 'o1', provider: 'outlook', connection_kind: 'oauth', account: graph.email },
      { refresh_token: firstRefreshToken },
    );
  });
  afterAll(async () => {
    await runtime?.close();
    await graph?.close();
  });

  async function outlookCalendar(
    name: string,
  ): Promise<{ record: CalendarRecord; provider: CalendarProvider; ref: CalendarRef }> {
    const native = graph.store.addCalendar(name);
    const record = await addCalendar(runtime, {
      provider: 'outlook',
      connection_id: 'o1',
      native_id: native.id,
      time_zone: ZONE,
    });
    return { record, ...(await runtime.calendars.providerFor(record)) };
  }
  const deltaRequests = (nativeId: string) =>
    graph.requests.filter((r) => r.path.endsWith(`/calendars/${nativeId}/calendarView/delta`));

  /** Busy time as the live provider lists it: the independent answer the shadow must match. */
  async function liveBusy(provider: CalendarProvider, ref: CalendarRef): Promise<[string, string, string][]> {
    const events = await listAllEvents(provider, ref, { start: MONTH[0], end: MONTH[1] });
    return events
      .filter((e) => blocksTime(e))
      .map((e): [string, string, string] => [
        new Date(eventTimeMs(e.start, ZONE)).toISOString(),
        new Date(eventTimeMs(e.end, ZONE)).toISOString(),
        e.id,
      ])
      .sort((a, b) => a[0].localeCompare(b[0]) || a[2].localeCompare(b[2]));
  }

  it('copies the window, then applies a delta round of adds, moves and deletes', async () => {
    clock.set(NOW);
    const { record, provider, ref } = await outlookCalendar('delta round');
    const moved = await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    const removed = await provider.createEvent(ref, timed('Lunch', '2026-06-11', 12, 13));
    await provider.createEvent(ref, timed('Standup', '2026-06-12', 9, 10));
    const first = await syncCalendar(runtime, record);
    expect(first).toMatchObject({ status: 'synced', mode: 'full', upserted: 3, deleted: 0 });

    const added = await provider.createEvent(ref, timed('Planning', '2026-06-15', 9, 10));
    await provider.updateEvent(ref, moved.id, timed('Review', '2026-06-10', 14, 15), { scope: 'this' });
    await provider.deleteEvent(ref, removed.id, { scope: 'this' });
    clock.advance(5 * 60_000);
    const second = await syncCalendar(runtime, record);

    expect(second).toMatchObject({ status: 'synced', mode: 'incremental', upserted: 2, deleted: 1 });
    // The round started from the stored delta link (its later pages follow $skiptoken links).
    const roundStarts = deltaRequests(record.native_id).filter((r) => !r.query.has('$skiptoken'));
    expect(roundStarts.map((r) => r.query.has('$deltatoken'))).toEqual([false, true]);
    const shadow = await busy(runtime, record.calendar_id, ...MONTH);
    expect(shadow.synced_at).toBe('2026-06-01T12:05:00.000Z');
    expect(shadow.intervals.map((i) => i[2])).toContain(added.id);
    expect(shadow.intervals).toEqual(await liveBusy(provider, ref));
  });

  it('resyncs the whole window when Graph expired the delta link (410 syncStateNotFound)', async () => {
    clock.set(NOW);
    const { record, provider, ref } = await outlookCalendar('expired link');
    const gone = await provider.createEvent(ref, timed('Gone', '2026-06-10', 10, 11));
    const stays = await provider.createEvent(ref, timed('Stays', '2026-06-11', 10, 11));
    await syncCalendar(runtime, record);
    await provider.deleteEvent(ref, gone.id, { scope: 'this' });
    graph.expireDeltaTokens();

    const summary = await syncCalendar(runtime, record);

    expect(summary).toMatchObject({
      mode: 'full',
      reason: 'the provider expired the sync token',
      deleted: 1,
    });
    expect((await busy(runtime, record.calendar_id, ...MONTH)).intervals.map((i) => i[2])).toEqual([
      stays.id,
    ]);
    expect(await syncCalendar(runtime, record)).toMatchObject({
      mode: 'incremental',
      upserted: 0,
      deleted: 0,
    });
  });

  it('starts a new delta round over the new window once the window moved on', async () => {
    clock.set(NOW);
    const { record, provider, ref } = await outlookCalendar('window moves');
    await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    await syncCalendar(runtime, record);
    clock.advance(8 * 86_400_000);

    const summary = await syncCalendar(runtime, record);

    expect(summary).toMatchObject({ mode: 'full', reason: 'window moved on' });
    const state = await new ShadowStore(runtime.store).readState(record.calendar_id);
    expect(state).toMatchObject({ provider: 'outlook', window_from: '2026-05-10T12:00:00.000Z' });
    const lastRound = deltaRequests(record.native_id)
      .filter((r) => r.query.has('startDateTime'))
      .at(-1);
    expect(lastRound?.query.get('startDateTime')).toBe('2026-05-10T12:00:00.000Z');
    expect(lastRound?.query.get('endDateTime')).toBe(state?.window_to);
  });

  it('keeps the refresh token Microsoft rotated, encrypted, so the connection outlives the first one', async () => {
    const { provider, ref } = await outlookCalendar('rotation');
    await provider.listEvents(ref, { start: MONTH[0], end: MONTH[1], single_events: true, max_results: 10 });

    const connection = await runtime.registry.requireConnection('o1');
    const secret = await runtime.encryption.decrypt(
      Buffer.from(connection.secret_ciphertext, 'base64'),
      secretContext(connection),
    );
    const stored = JSON.parse(Buffer.from(secret).toString('utf8')).refresh_token as string;
    expect(stored).not.toBe(firstRefreshToken);
    expect(connection.secret_ciphertext).not.toContain(stored);

    // The first token expires: an adapter built from the stored secret still signs in.
    graph.identity.revokeRefreshToken(firstRefreshToken);
    const fresh = await providerFactories(env).outlook!(connection, Buffer.from(secret).toString('utf8'));
    await expect(fresh.listCalendars()).resolves.not.toHaveLength(0);
  });
});
