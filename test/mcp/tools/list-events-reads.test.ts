import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { okTool } from '../../support/mcp-client.js';
import { serveNativeCalendarBehindTableLog } from '../../support/served-behind-table-log.js';

/**
 * list_events on one native calendar, its table requests seen from outside the server with each
 * answer held back (serveBehindTableLog), so that requests sent in turn fall in separate rounds.
 */
describe('list_events on a native calendar', () => {
  let slow: Awaited<ReturnType<typeof serveNativeCalendarBehindTableLog>>;
  let agent: Client;
  let calendarId: string;

  beforeAll(async () => {
    slow = await serveNativeCalendarBehindTableLog('Europe/Paris');
    ({ agent, calendarId } = slow);
    for (const [summary, start, end] of [
      ['Standup', '2031-01-07T09:00:00+01:00', '2031-01-07T09:15:00+01:00'],
      ['Review', '2031-01-07T14:00:00+01:00', '2031-01-07T15:00:00+01:00'],
    ] as const) {
      await slow.runtime.calendars.createEvent(LOCAL_OWNER, calendarId, {
        summary,
        start: { date_time: start },
        end: { date_time: end },
      });
    }
  });

  afterAll(async () => {
    await slow?.close();
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
    slow.tableLog.rounds();

    const listed = await list();

    expect(listed.events.map((e) => e.summary)).toEqual(['Standup', 'Review']);
    const nativeId = calendarId.replace('native/', '');
    const ofCalendar = slow.tableLog.rounds(nativeId);
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
