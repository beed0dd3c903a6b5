/**
 * list_events over 10 native calendars × 1,000 events, against reading the same items straight
 * from the table (the floor any listing pays), and TOON against JSON for the same result.
 */
import { encode } from '@toon-format/toon';
import { LOCAL_OWNER } from '../lambdas/core/access/rights.js';
import { listEvents } from '../lambdas/core/calendar/event-listing.js';
import { eventToItem, startIndexOf } from '../lambdas/core/calendar/native/native-items.js';
import { fixedClock } from '../lambdas/core/ports/index.js';
import { queryAll } from '../lambdas/core/storage/query-all.js';
import { eventRow } from '../lambdas/mcp/tools/calendar/event-rows.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { compare, reportFigure, reportRatio } from './harness.js';

const CALENDARS = 10;
const EVENTS = 1000;
const START = Date.parse('2026-01-05T00:00:00Z');

export async function run(): Promise<void> {
  const runtime = await startTestRuntime({
    clock: fixedClock('2026-01-01T00:00:00Z'),
    defaultTimezone: 'Europe/London',
  });
  const nativeIds: string[] = [];
  for (let c = 0; c < CALENDARS; c++) {
    const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, {
      name: `Team ${c}`,
      time_zone: 'Europe/London',
    });
    const nativeId = calendar.id.slice('native/'.length);
    nativeIds.push(nativeId);
    const items = Array.from({ length: EVENTS }, (_, i) => {
      const start = START + i * 3 * 3_600_000 + c * 60_000;
      return eventToItem(
        nativeId,
        {
          id: `e${c}x${i}`,
          calendar_id: calendar.id,
          summary: `Meeting ${i} of team ${c}`,
          location: 'Room 4',
          start: { date_time: new Date(start).toISOString(), time_zone: 'Europe/London' },
          end: { date_time: new Date(start + 3_600_000).toISOString(), time_zone: 'Europe/London' },
          status: 'confirmed',
          transparency: 'opaque',
          visibility: 'default',
          attendees: [{ email: 'ann@example.com', response_status: 'accepted' }],
          etag: '"1"',
        },
        1,
      );
    });
    await runtime.store.batchPut(items);
  }
  const window = { start: '2026-01-01T00:00:00Z', end: '2026-06-01T00:00:00Z' };
  const params = { ...window, max_results: 2500, single_events: true, order_by: 'start_time' as const };

  const readAllPages = async () => {
    let count = 0;
    let page_token: string | undefined;
    do {
      const page = await listEvents(runtime.calendars, LOCAL_OWNER, {
        ...params,
        ...(page_token ? { page_token } : {}),
      });
      count += page.count;
      page_token = page.next_page_token;
    } while (page_token);
    if (count !== CALENDARS * EVENTS)
      throw new Error(`listed ${count} events, expected ${CALENDARS * EVENTS}`);
  };
  const readTable = async () => {
    const pages = await Promise.all(
      nativeIds.map((id) => queryAll(runtime.store, { index: 'gsi1', partition: startIndexOf(id) })),
    );
    const count = pages.reduce((sum, items) => sum + items.length, 0);
    if (count !== CALENDARS * EVENTS) throw new Error(`read ${count} items`);
  };

  const full = await compare(
    { name: 'list_events (all pages)', fn: readAllPages },
    { name: 'direct table query', fn: readTable },
    { rounds: 3, runs: 6, warmup: 1 },
  );
  reportRatio('list_events, 10 calendars × 1,000 events, every page', full, { kind: 'slowdown', value: 3 });

  const firstPage = () => listEvents(runtime.calendars, LOCAL_OWNER, { ...params, max_results: 100 });
  const first = await compare(
    { name: 'list_events (first 100)', fn: firstPage },
    { name: 'direct table query', fn: readTable },
    { rounds: 3, runs: 6, warmup: 1 },
  );
  // A first page reads about its own size (lazy k-way merge), not every calendar's whole window.
  reportRatio('list_events, first page of 100 over the same calendars', first, {
    kind: 'slowdown',
    value: 1,
  });

  const sample = await listEvents(runtime.calendars, LOCAL_OWNER, { ...params, max_results: 200 });
  const json = JSON.stringify(sample).length;
  const rows = { ...sample, events: sample.events.map(eventRow) };
  const toon = encode(rows).length;
  const jsonRows = JSON.stringify(rows).length;
  reportFigure(
    'list_events result size, 200 events',
    `JSON ${json} chars, TOON ${toon} chars → TOON is ${(100 * (1 - toon / json)).toFixed(0)}% smaller (ratio ${(toon / json).toFixed(2)})`,
  );
  reportFigure(
    'same flattened rows',
    `JSON ${jsonRows} chars, TOON ${toon} chars → ratio ${(toon / jsonRows).toFixed(2)}`,
  );
  await runtime.close();
}
