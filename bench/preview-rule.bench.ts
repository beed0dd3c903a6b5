/**
 * Issue 9: preview_rule over 90 days of 50 calendars, against a plain read of the same events
 * through the same providers (the floor any preview pays). Target: at most 1.5×.
 */
import { LOCAL_OWNER } from '../lambdas/core/access/rights.js';
import type { CalendarRecord } from '../lambdas/core/calendar/calendar-registry.js';
import { eventToItem } from '../lambdas/core/calendar/native/native-items.js';
import { mapWithConcurrency } from '../lambdas/core/concurrency.js';
import { fixedClock } from '../lambdas/core/ports/index.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { compare, reportFigure, reportRatio } from './harness.js';

const CALENDARS = 50;
const DAYS = 90;
const PER_DAY = 4;
const RULES = 200;
const NOW = '2026-04-01T00:00:00Z';
const FROM = Date.parse(NOW) - DAYS * 86_400_000;
const DOMAINS = ['acme.com', 'globex.com', 'initech.com', 'umbrella.com', 'example.org'];

export async function run(): Promise<void> {
  const runtime = await startTestRuntime({ clock: fixedClock(NOW), defaultTimezone: 'Europe/Berlin' });
  const records: CalendarRecord[] = [];
  for (let c = 0; c < CALENDARS; c++) {
    const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, {
      name: `Team ${c}`,
      time_zone: 'Europe/Berlin',
      owner_email: `owner${c}@meridian.dev`,
    });
    const nativeId = calendar.id.slice('native/'.length);
    const items = Array.from({ length: DAYS * PER_DAY }, (_, i) => {
      const start = FROM + Math.floor(i / PER_DAY) * 86_400_000 + (8 + 2 * (i % PER_DAY)) * 3_600_000;
      return eventToItem(
        nativeId,
        {
          id: `e${c}x${i}`,
          calendar_id: calendar.id,
          summary: `${i % 3 === 0 ? 'Weekly sync' : 'Review'} ${i % 7} with team ${c}`,
          start: { date_time: new Date(start).toISOString(), time_zone: 'Europe/Berlin' },
          end: { date_time: new Date(start + 3_600_000).toISOString(), time_zone: 'Europe/Berlin' },
          status: 'confirmed',
          transparency: 'opaque',
          visibility: 'default',
          attendees: [
            { email: `owner${c}@meridian.dev`, response_status: 'accepted', self: true },
            { email: `guest${i % 11}@${DOMAINS[i % DOMAINS.length]}`, response_status: 'accepted' },
          ],
          etag: '"1"',
        },
        1,
      );
    });
    await runtime.store.batchPut(items);
    records.push(await runtime.calendars.calendarFor(LOCAL_OWNER, calendar.id, 'read'));
  }
  const project = await runtime.rules.createProject(LOCAL_OWNER, { name: 'Acme' });
  for (let r = 0; r < RULES; r++)
    await runtime.rules.createRule(LOCAL_OWNER, {
      query: `title:"review ${r % 7}" domain:${DOMAINS[r % DOMAINS.length]} -title:canceled${r}`,
      project_id: project.project_id,
    });
  const window = { start: new Date(FROM).toISOString(), end: NOW };
  const total = CALENDARS * DAYS * PER_DAY;

  const preview = async () => {
    const result = await runtime.rules.previewRule(LOCAL_OWNER, {
      query: '(domain:acme.com OR domain:globex.com) title:sync -time-of-day:>17:00',
      project_id: project.project_id,
      ...window,
    });
    if (result.total_matched === 0) throw new Error('the preview matched nothing');
  };
  // The same reads the preview makes, page by page, with nothing parsed, matched or classified.
  const plainRead = async () => {
    const counts = await mapWithConcurrency(records, 8, async (record) => {
      const { provider, ref } = await runtime.calendars.providerFor(record);
      let count = 0;
      let page_token: string | undefined;
      do {
        const page = await provider.listEvents(ref, {
          ...window,
          single_events: true,
          max_results: 2500,
          ...(page_token ? { page_token } : {}),
        });
        count += page.events.length;
        page_token = page.next_page_token;
      } while (page_token);
      return count;
    });
    const read = counts.reduce((sum, n) => sum + n, 0);
    if (read !== total) throw new Error(`read ${read} events, expected ${total}`);
  };

  const result = await compare(
    { name: 'preview_rule', fn: preview },
    { name: 'plain read', fn: plainRead },
    { rounds: 3, runs: 3, warmup: 1 },
  );
  reportFigure(
    'preview_rule corpus',
    `${total} events on ${CALENDARS} calendars over ${DAYS} days, ${RULES} rules`,
  );
  reportRatio(`preview_rule over ${DAYS} days of ${CALENDARS} calendars`, result, {
    kind: 'slowdown',
    value: 1.5,
  });
  await runtime.close();
}
