/**
 * book_slot in the embedded runtime (booking.asl.json run by aws-local-stepfunctions on dynalite):
 * 1. one uncontended booking against the same DynamoDB operations issued directly, in the same
 *    order, with none of the workflow (state machine, step payload validation, JSON hand-offs);
 * 2. the time until 20 contending bookers of one slot have all been answered, as a multiple of
 *    one uncontended booking measured in the same run.
 */
import { LOCAL_OWNER } from '../lambdas/core/access/rights.js';
import { lockKey } from '../lambdas/core/booking/slot-locks.js';
import {
  eventToItem,
  LONG_EVENT_MS,
  longIndexOf,
  partitionOf,
  sortableUtc,
  startIndexOf,
} from '../lambdas/core/calendar/native/native-items.js';
import { fixedClock } from '../lambdas/core/ports/index.js';
import { SK } from '../lambdas/core/storage/key-prefixes.js';
import { queryAll } from '../lambdas/core/storage/query-all.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { compare, reportFigure, reportRatio } from './harness.js';

const HOUR_MS = 3_600_000;
const FIRST_SLOT = Date.parse('2026-02-02T00:00:00Z');
const BOOKERS = 20;

export async function run(): Promise<void> {
  const runtime = await startTestRuntime({
    clock: fixedClock('2026-02-01T00:00:00Z'),
    defaultTimezone: 'UTC',
  });
  const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Bench', time_zone: 'UTC' });
  const nativeId = calendar.id.slice('native/'.length);
  // Every booking gets a slot of its own (one hour after the last), so none contends.
  let next = 0;
  const nextSlot = () => {
    const start = FIRST_SLOT + next++ * HOUR_MS;
    return {
      start: new Date(start).toISOString(),
      end: new Date(start + HOUR_MS / 2).toISOString(),
      startMs: start,
    };
  };

  const viaWorkflow = async () => {
    const { start, end } = nextSlot();
    await runtime.booking.book(LOCAL_OWNER, { calendar_id: calendar.id, start, end, summary: 'Bench' });
  };

  /** The reads and writes one booking makes (see docs/adr/0002-booking-locks.md), issued inline. */
  const direct = async () => {
    const { start, end, startMs } = nextSlot();
    const store = runtime.store;
    const id = `direct-${next}`;
    const idem = { pk: `IDEM#${id}`, sk: 'BOOKING' };
    const lock = lockKey(calendar.id);
    const owner = { op: 'eq' as const, attribute: 'owner', value: id };
    // BookingService: the calendar (grant check), the completed-booking pre-check.
    await store.get({ pk: `CAL#${calendar.id}`, sk: 'CAL' }, { consistent: true });
    await store.get(idem, { consistent: true });
    // Lock: claim the key, take the hold.
    await store.put({ ...idem, owner: id, status: 'pending' }, { condition: { op: 'not_exists' } });
    const held = await store.get(lock, { consistent: true });
    const version = (held?.version as number | undefined) ?? 0;
    const fence = ((held?.fence as number | undefined) ?? 0) + 1;
    const hold = {
      owner: id,
      token: fence,
      start_ms: startMs,
      end_ms: startMs + HOUR_MS / 2,
      expires_at_ms: startMs,
    };
    await store.put(
      { ...lock, holds: [hold], fence, version: version + 1 },
      { condition: held ? { op: 'eq', attribute: 'version', value: version } : { op: 'not_exists' } },
    );
    // Verify: the hold, then the calendar's events in the slot (as the native provider reads them).
    await store.get(lock, { consistent: true });
    await Promise.all([
      queryAll(store, { index: 'gsi1', partition: longIndexOf(nativeId) }),
      queryAll(store, { partition: partitionOf(nativeId), beginsWith: SK.nativeCalendar.seriesPrefix }),
    ]);
    await store.query({
      index: 'gsi1',
      partition: startIndexOf(nativeId),
      between: { from: sortableUtc(startMs - LONG_EVENT_MS), to: `${sortableUtc(startMs + HOUR_MS / 2)}~` },
      limit: 61,
    });
    // Write: fence, create the event, fence again, commit.
    await store.get(lock, { consistent: true });
    const event = {
      id,
      calendar_id: calendar.id,
      summary: 'Bench',
      start: { date_time: start, time_zone: 'UTC' },
      end: { date_time: end, time_zone: 'UTC' },
      status: 'confirmed' as const,
      transparency: 'opaque' as const,
      visibility: 'default' as const,
      attendees: [],
      etag: '"1"',
    };
    await store.put(eventToItem(nativeId, event, 1), { condition: { op: 'not_exists' } });
    await store.get(lock, { consistent: true });
    await store.put({ ...idem, owner: id, status: 'written', event_id: id }, { condition: owner });
    // Release: drop the hold, mark the booking completed.
    await store.get(lock, { consistent: true });
    await store.put(
      { ...lock, holds: [], fence, version: version + 2 },
      { condition: { op: 'eq', attribute: 'version', value: version + 1 } },
    );
    await store.get(idem, { consistent: true });
    await store.put({ ...idem, owner: id, status: 'completed', event_id: id }, { condition: owner });
  };

  const uncontended = await compare(
    { name: 'book_slot (embedded workflow)', fn: viaWorkflow },
    { name: 'same DynamoDB operations inline', fn: direct },
    { rounds: 5, runs: 40, warmup: 4 },
  );
  reportRatio('uncontended book_slot, median', uncontended, { kind: 'slowdown', value: 3 });

  // 20 bookers of one identical slot (each its own booking); done when every one has an answer.
  let answers = { booked: 0, refused: 0 };
  const contended = async () => {
    const { start, end } = nextSlot();
    const settled = await Promise.allSettled(
      Array.from({ length: BOOKERS }, (_, i) =>
        runtime.booking.book(LOCAL_OWNER, { calendar_id: calendar.id, start, end, summary: `Booker ${i}` }),
      ),
    );
    const booked = settled.filter((s) => s.status === 'fulfilled').length;
    if (booked !== 1)
      throw new Error(`${booked} of ${BOOKERS} contending bookers succeeded, expected exactly 1`);
    answers = { booked: answers.booked + 1, refused: answers.refused + BOOKERS - 1 };
  };
  const settle = await compare(
    { name: `${BOOKERS} contending bookers, all answered`, fn: contended },
    { name: 'one uncontended booking', fn: viaWorkflow },
    { rounds: 3, runs: 9, warmup: 1 },
  );
  const multiple = settle.candidate.medianMs / settle.baseline.medianMs;
  reportFigure(
    `settle time of ${BOOKERS} contending bookers (one wins, ${BOOKERS - 1} refused)`,
    `${settle.candidate.medianMs.toFixed(1)} ms = ${multiple.toFixed(1)}× one uncontended booking (${settle.baseline.medianMs.toFixed(1)} ms); ` +
      `${answers.booked} rounds, ${answers.refused} refusals, exactly one winner each`,
  );

  await runtime.close();
}
