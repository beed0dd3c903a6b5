/**
 * find_free_slots on a native calendar of 200 recurring series (every five hours since 2020: about
 * 6,700 occurrences in the week asked), against listing the same week's occurrences once in one
 * page — the read every busy-time answer needs. Busy time used to read the window 500 occurrences
 * a page, and every page expanded every series again: 14 pages, 7–11 s where one read takes under 1 s.
 */
import { LOCAL_OWNER } from '../lambdas/core/access/rights.js';
import { findFreeSlotsTool } from '../lambdas/mcp/tools/availability/find-free-slots.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { compare, reportFigure, reportRatio } from './harness.js';

const SERIES = 200;
const WINDOW = { start: '2026-12-01T00:00:00Z', end: '2026-12-08T00:00:00Z' };

export async function run(): Promise<void> {
  const runtime = await startTestRuntime({ defaultTimezone: 'UTC' });
  try {
    const calendarId = (
      await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Busy', time_zone: 'UTC' })
    ).id;
    for (let i = 0; i < SERIES; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) => {
          const n = i + j;
          const day = String(1 + (n % 28)).padStart(2, '0');
          const hour = String(n % 24).padStart(2, '0');
          return runtime.calendars.createEvent(LOCAL_OWNER, calendarId, {
            summary: `Series ${n}`,
            start: { date_time: `2020-01-${day}T${hour}:00:00`, time_zone: 'UTC' },
            end: { date_time: `2020-01-${day}T${hour}:20:00`, time_zone: 'UTC' },
            recurrence: ['RRULE:FREQ=HOURLY;INTERVAL=5'],
          });
        }),
      );
    }
    // The provider's read, in one page: every occurrence of the week, expanded once.
    const { provider, ref } = await runtime.calendars.providerFor(
      await runtime.calendars.calendarFor(LOCAL_OWNER, calendarId, 'read'),
    );
    const listOnce = () =>
      provider.listEvents(ref, { ...WINDOW, single_events: true, max_results: Number.MAX_SAFE_INTEGER });
    const first = await listOnce();
    reportFigure('occurrences in the week', String(first.events.length));
    const input = findFreeSlotsTool.input.parse({ calendar_id: calendarId, ...WINDOW, slot_minutes: 30 });
    const freeSlots = () =>
      findFreeSlotsTool.run(runtime as never, input as never, { principal: LOCAL_OWNER } as never);
    reportRatio(
      `find_free_slots over ${SERIES} dense series`,
      await compare(
        { name: 'find_free_slots', fn: freeSlots },
        { name: 'list the week once', fn: listOnce },
        { rounds: 3, runs: 3, warmup: 1 },
      ),
      { kind: 'slowdown', value: 2 },
    );
  } finally {
    await runtime.close();
  }
}
