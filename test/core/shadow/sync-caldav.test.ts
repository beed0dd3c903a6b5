import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SyncingCalDavProvider } from '../../../lambdas/adapters/caldav/caldav-sync.js';
import { blocksTime } from '../../../lambdas/core/calendar/busy-intervals.js';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import { eventTimeMs } from '../../../lambdas/core/calendar/event-times.js';
import type { CalendarRef } from '../../../lambdas/core/ports/index.js';
import { syncAll } from '../../../lambdas/core/shadow/sync-all.js';
import type { SyncDeps } from '../../../lambdas/core/shadow/sync-types.js';
import { type RadicaleServer, startRadicale } from '../../support/radicale.js';
import { needs, RADICALE } from '../../support/system-parts.js';
import type { TestRuntime } from '../../support/test-runtime.js';
import {
  addCalendar,
  busy,
  type MovableClock,
  movableClock,
  shadowItems,
  startShadowRuntime,
} from './shadow-fixture.js';

const USER = 'alice@example.com';
const PASSWORD = 'correct horse battery staple';
const NOW = '2026-06-01T12:00:00Z';
const ZONE = 'America/New_York';

/** Requests the provider sent, as "METHOD first-element" (REPORT calendar-multiget, PROPFIND …). */
interface Sent {
  method: string;
  report?: string;
  hrefs: number;
}

const at = (date: string, hour: number, minutes = 0) =>
  `${date}T${String(hour).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:00-04:00`;
const timed = (summary: string, date: string, from: number, to: number): EventDraft => ({
  summary,
  start: { date_time: at(date, from), time_zone: ZONE },
  end: { date_time: at(date, to), time_zone: ZONE },
});

let radicale: RadicaleServer;

beforeAll(async () => {
  radicale = await startRadicale({ [USER]: PASSWORD });
});

afterAll(async () => {
  await radicale?.stop();
});

describe('syncAll with a CalDAV calendar (Radicale)', needs(RADICALE), () => {
  let runtime: TestRuntime;
  let clock: MovableClock;
  let provider: SyncingCalDavProvider;
  let ref: CalendarRef;
  let deps: SyncDeps;
  let sent: Sent[];

  beforeEach(async () => {
    clock = movableClock(NOW);
    runtime = await startShadowRuntime({ clock, defaultTimezone: ZONE });
    sent = [];
    const counting: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      sent.push({
        method: (init?.method ?? 'GET').toUpperCase(),
        report: /<(?:\w+:)?(calendar-multiget|calendar-query)\b/.exec(body)?.[1],
        hrefs: (body.match(/<(?:\w+:)?href>/g) ?? []).length,
      });
      return fetch(input, init);
    };
    provider = new SyncingCalDavProvider({
      serverUrl: radicale.url,
      username: USER,
      password: PASSWORD,
      calendarPrefix: 'caldav/conn1/',
      retryDelayMs: 0,
      fetch: counting,
    });
    ref = provider.calendarRef(await provider.createCalendar({ name: 'Work', time_zone: ZONE }));
    await addCalendar(runtime, {
      provider: 'caldav',
      connection_id: 'conn1',
      native_id: ref.native_id,
      time_zone: ZONE,
    });
    // The provider under test, with its request log; everything else is the composed runtime.
    deps = { ...runtime, calendars: { providerFor: async () => ({ provider, ref }) } };
  });

  afterEach(async () => {
    await runtime.close();
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

  it('copies the window on the first sync: one-offs, a series with an edit and a cancellation, all-day', async () => {
    const review = await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    const standup = await provider.createEvent(ref, {
      ...timed('Standup', '2026-06-02', 9, 10),
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
    });
    await provider.updateEvent(
      ref,
      `${standup.id}_20260609T130000Z`,
      {
        start: { date_time: at('2026-06-09', 15), time_zone: ZONE },
        end: { date_time: at('2026-06-09', 16), time_zone: ZONE },
      },
      { scope: 'this' },
    );
    await provider.deleteEvent(ref, `${standup.id}_20260616T130000Z`, { scope: 'this' });
    const offsite = await provider.createEvent(ref, {
      summary: 'Offsite',
      start: { date: '2026-06-15' },
      end: { date: '2026-06-16' },
    });
    await provider.createEvent(ref, timed('Next year', '2027-06-01', 9, 10));

    const summary = await syncAll(deps);

    expect(summary).toMatchObject({ synced: 1, failed: 0, upserted: 4, deleted: 0 });
    expect(summary.calendars[0]).toMatchObject({ status: 'synced', mode: 'full', reason: 'never synced' });
    const shadow = await busy(runtime, ref.calendar_id, '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z');
    expect(shadow.synced_at).toBe('2026-06-01T12:00:00.000Z');
    expect(shadow.intervals).toEqual([
      ['2026-06-02T13:00:00.000Z', '2026-06-02T14:00:00.000Z', `${standup.id}_20260602T130000Z`],
      ['2026-06-09T19:00:00.000Z', '2026-06-09T20:00:00.000Z', `${standup.id}_20260609T130000Z`],
      ['2026-06-10T14:00:00.000Z', '2026-06-10T15:00:00.000Z', review.id],
      // All-day in the calendar's zone: New York midnight to midnight.
      ['2026-06-15T04:00:00.000Z', '2026-06-16T04:00:00.000Z', offsite.id],
      ['2026-06-23T13:00:00.000Z', '2026-06-23T14:00:00.000Z', `${standup.id}_20260623T130000Z`],
    ]);
    expect(shadow.intervals).toEqual(await liveBusy('2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z'));
    // The event a year ahead is outside the window (30 days back, 187 ahead) and not copied.
    expect(
      (await shadowItems(runtime, ref.calendar_id)).some((i) => JSON.stringify(i).includes('Next year')),
    ).toBe(false);
  });

  it('skips a calendar whose ctag has not changed, with one PROPFIND and no REPORT', async () => {
    await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    await syncAll(deps);
    clock.advance(5 * 60_000);
    sent.length = 0;

    const summary = await syncAll(deps);

    expect(summary.calendars[0]).toMatchObject({
      status: 'unchanged',
      synced_at: '2026-06-01T12:05:00.000Z',
    });
    expect(sent.map((s) => s.method)).toEqual(['PROPFIND']);
    expect(await runtime.shadow.freshness(ref.calendar_id)).toEqual({
      synced_at: '2026-06-01T12:05:00.000Z',
      age_seconds: 0,
    });
  });

  it('fetches only the modified resource and drops the deleted one', async () => {
    const moved = await provider.createEvent(ref, timed('Review', '2026-06-10', 10, 11));
    const removed = await provider.createEvent(ref, timed('Lunch', '2026-06-11', 12, 13));
    const kept = await provider.createEvent(ref, timed('Planning', '2026-06-12', 9, 10));
    await syncAll(deps);
    await provider.updateEvent(
      ref,
      moved.id,
      {
        start: { date_time: at('2026-06-10', 14), time_zone: ZONE },
        end: { date_time: at('2026-06-10', 15), time_zone: ZONE },
      },
      { scope: 'this' },
    );
    await provider.deleteEvent(ref, removed.id, { scope: 'this' });
    clock.advance(5 * 60_000);
    sent.length = 0;

    const summary = await syncAll(deps);

    expect(summary.calendars[0]).toMatchObject({
      status: 'synced',
      mode: 'incremental',
      upserted: 1,
      deleted: 1,
    });
    const multigets = sent.filter((s) => s.report === 'calendar-multiget');
    expect(multigets.map((m) => m.hrefs)).toEqual([1]);
    const shadow = await busy(runtime, ref.calendar_id, '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z');
    expect(shadow.intervals).toEqual([
      ['2026-06-10T18:00:00.000Z', '2026-06-10T19:00:00.000Z', moved.id],
      ['2026-06-12T13:00:00.000Z', '2026-06-12T14:00:00.000Z', kept.id],
    ]);
    expect(shadow.intervals).toEqual(await liveBusy('2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z'));
    // No leftover of the moved event's old slot or of the deleted one.
    const ids = (await shadowItems(runtime, ref.calendar_id))
      .map((i) => i.sk)
      .filter((sk) => sk.startsWith('EVT#'));
    expect(ids).toHaveLength(2);
  });
});
