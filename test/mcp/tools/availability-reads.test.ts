import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { ShadowStore } from '../../../lambdas/core/shadow/shadow-store.js';
import { addCalendar } from '../../core/shadow/shadow-fixture.js';
import { callTool, errorOf, okTool } from '../../support/mcp-client.js';
import {
  serveBehindTableLog,
  serveNativeCalendarBehindTableLog,
} from '../../support/served-behind-table-log.js';

/**
 * The table requests of a warm check_availability on a native calendar, seen from outside the
 * server: each is a round trip on the call's path, and a cold start pays them one after another.
 */
describe('check_availability on a native calendar', () => {
  let slow: Awaited<ReturnType<typeof serveNativeCalendarBehindTableLog>>;
  let tableLog: typeof slow.tableLog;
  let agent: Client;
  let calendarId: string;

  beforeAll(async () => {
    slow = await serveNativeCalendarBehindTableLog('UTC');
    ({ tableLog, agent, calendarId } = slow);
    await slow.runtime.calendars.createEvent(LOCAL_OWNER, calendarId, {
      summary: 'Standup',
      start: { date_time: '2031-01-07T09:00:00Z' },
      end: { date_time: '2031-01-07T10:00:00Z' },
    });
  });

  afterAll(async () => {
    await slow?.close();
  });

  const check = () =>
    okTool<{ available: boolean }>(agent, 'check_availability', {
      calendar_id: calendarId,
      start: '2031-01-06T09:00:00Z',
      end: '2031-01-06T10:00:00Z',
    });

  it("reads the calendar's record once: the access check's read serves the events' read too", async () => {
    await check(); // the key's budget and everything else a first call reads once
    tableLog.take();
    expect((await check()).available).toBe(true);
    const gets = tableLog.take().filter((operation) => operation === 'GetItem');
    // The calendar's record and its booking holds; before, the shadow read the record again.
    expect(gets).toHaveLength(2);
  });

  it("reads the calendar's record, its holds and its events in one round trip", async () => {
    await check();
    tableLog.rounds();

    expect((await check()).available).toBe(true);

    const nativeId = calendarId.replace('native/', '');
    const ofCalendar = tableLog.rounds(nativeId);
    // Before: the record (and holds) in one round trip, the events' three queries in the next.
    expect(ofCalendar).toEqual([
      [
        `GetItem CAL#${calendarId}`,
        `GetItem LOCK#${calendarId}`,
        `Query NCAL#${nativeId}`, // series
        `Query NCAL#${nativeId}#LONG`, // long events
        `Query NCAL#${nativeId}#START`, // one-off events by start
      ],
    ]);
  });

  it('refuses a key without the grant before reading anything of the calendar, its holds included', async () => {
    const stranger = await slow.served.connect('stranger');
    await okTool(stranger.client, 'list_calendars', {}); // the key's first-call reads, apart
    tableLog.rounds();

    const refused = await callTool(stranger.client, 'check_availability', {
      calendar_id: calendarId,
      start: '2031-01-06T09:00:00Z',
      end: '2031-01-06T10:00:00Z',
    });

    expect(errorOf(refused)).toMatchObject({ code: 'FORBIDDEN' });
    // The key's own reads, then the grant's consistent read, refused: nothing of the calendar.
    // Before, the calendar's holds (GetItem LOCK#…) were read beside the grant.
    expect(tableLog.rounds()).toEqual([
      [expect.stringMatching(/^Query KEY#/)],
      [expect.stringMatching(/^GetItem KEY#/)],
    ]);
  });

  it('still finds the event that makes the slot busy', async () => {
    const busy = await okTool<{ available: boolean; conflicts: { kind: string }[] }>(
      agent,
      'check_availability',
      {
        calendar_id: calendarId,
        start: '2031-01-07T09:30:00Z',
        end: '2031-01-07T10:30:00Z',
      },
    );

    expect(busy).toMatchObject({ available: false, conflicts: [{ kind: 'event' }] });
  });
});

/**
 * A connected calendar's busy time comes from its shadow, which is keyed by the calendar's id:
 * the record and the shadow are read together. Each answer from the table is held back, so that
 * requests sent one after another fall in separate round trips.
 */
describe('check_availability on a connected calendar', () => {
  let slow: Awaited<ReturnType<typeof serveBehindTableLog>>;
  let agent: Client;
  const calendarId = 'caldav/c1/work';

  beforeAll(async () => {
    slow = await serveBehindTableLog();
    const { runtime, served } = slow;
    await addCalendar(runtime, {
      provider: 'caldav',
      connection_id: 'c1',
      native_id: 'work',
      time_zone: 'UTC',
    });
    await new ShadowStore(runtime.store).writeState(calendarId, {
      provider: 'caldav',
      window_from: '2030-12-01T00:00:00.000Z',
      window_to: '2031-03-01T00:00:00.000Z',
      synced_at: new Date().toISOString(),
      last_attempt_at: new Date().toISOString(),
    });
    const key = await served.connect('agent');
    await runtime.access.setGrant(key.keyId, calendarResource(calendarId), 'read');
    agent = key.client;
  });

  afterAll(async () => {
    await slow?.close();
  });

  it("reads the calendar's record, its shadow and its holds in one round trip", async () => {
    const check = () =>
      okTool<{ available: boolean; freshness: { source: string } }>(agent, 'check_availability', {
        calendar_id: calendarId,
        start: '2031-01-06T09:00:00Z',
        end: '2031-01-06T10:00:00Z',
      });
    await check(); // the key's budget and everything else a first call reads once
    slow.tableLog.rounds();

    const answer = await check();

    expect(answer).toMatchObject({ available: true, freshness: { source: 'shadow' } });
    const ofCalendar = slow.tableLog.rounds(calendarId);
    // Before: the record in one round trip, then the shadow's state and window in the next.
    expect(ofCalendar).toHaveLength(1);
    expect(new Set(ofCalendar[0])).toEqual(
      new Set([
        `GetItem CAL#${calendarId}`, // the record
        `GetItem LOCK#${calendarId}`, // booking holds
        `GetItem SHADOW#${calendarId}`, // the shadow's sync state
        `Query SHADOW#${calendarId}`, // the shadow's events in the window
      ]),
    );
  });
});
