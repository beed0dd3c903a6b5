import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTableRequestLog } from '../../support/table-request-log.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/**
 * list_events on one native calendar, its table requests seen from outside the server with each
 * answer held back 20 ms, so that requests sent one after another fall in separate round trips.
 */
describe('list_events on a native calendar', () => {
  let dynalite: Awaited<ReturnType<typeof startDynalite>>;
  let tableLog: Awaited<ReturnType<typeof startTableRequestLog>>;
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let agent: Client;
  let calendarId: string;

  beforeAll(async () => {
    dynalite = await startDynalite();
    tableLog = await startTableRequestLog(dynalite.endpoint, { answerDelayMs: 20 });
    runtime = await startTestRuntime({ endpoint: tableLog.endpoint });
    served = await serveRuntime(runtime);
    calendarId = (
      await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Work', time_zone: 'Europe/Paris' })
    ).id;
    for (const [summary, start, end] of [
      ['Standup', '2031-01-07T09:00:00+01:00', '2031-01-07T09:15:00+01:00'],
      ['Review', '2031-01-07T14:00:00+01:00', '2031-01-07T15:00:00+01:00'],
    ] as const) {
      await runtime.calendars.createEvent(LOCAL_OWNER, calendarId, {
        summary,
        start: { date_time: start },
        end: { date_time: end },
      });
    }
    const key = await served.connect('agent');
    await runtime.access.setGrant(key.keyId, calendarResource(calendarId), 'read');
    agent = key.client;
  });

  afterAll(async () => {
    await served?.close();
    await tableLog?.close();
    await dynalite?.close();
  });

  const list = (extra: Record<string, unknown> = {}) =>
    okTool<{ events: { summary: string; start: { date_time?: string } }[]; has_more: boolean }>(
      agent,
      'list_events',
      {
        calendar_id: calendarId,
        start: '2031-01-07T00:00:00+01:00',
        end: '2031-01-08T00:00:00+01:00',
        ...extra,
      },
    );

  it("reads the calendar's record and its events in one round trip", async () => {
    await list(); // the key's budget and everything else a first call reads once
    tableLog.rounds();

    const listed = await list();

    expect(listed.events.map((e) => e.summary)).toEqual(['Standup', 'Review']);
    const nativeId = calendarId.replace('native/', '');
    const ofCalendar = tableLog
      .rounds()
      .filter((round) => round.some((request) => request.includes(nativeId)));
    // Before: the record in one round trip, the events' three queries in the next.
    expect(ofCalendar).toEqual([
      [
        `GetItem CAL#${calendarId}`,
        `Query NCAL#${nativeId}`, // series
        `Query NCAL#${nativeId}#LONG`, // long events
        `Query NCAL#${nativeId}#START`, // one-off events by start
      ],
    ]);
  });

  it('pages through the same events from the page read beside the record', async () => {
    const first = await list({ max_results: 1 });
    expect(first).toMatchObject({ has_more: true, events: [{ summary: 'Standup' }] });
    const token = (first as unknown as { next_page_token: string }).next_page_token;

    const second = await list({ max_results: 1, page_token: token });

    expect(second).toMatchObject({ has_more: false, events: [{ summary: 'Review' }] });
  });
});
