import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import type { Hold } from '../../../lambdas/core/booking/booking-schemas.js';
import { requestHash, storedIdempotencyKey } from '../../../lambdas/core/booking/idempotency.js';
import { lockKey } from '../../../lambdas/core/booking/slot-locks.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

const ROUNDS = 50;
const BOOKERS = 20;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Slots are booked on the days after this instant; the clock stays frozen at it. */
const NOW = '2026-06-01T00:00:00Z';

interface Attempt {
  summary: string;
  start: string;
  end: string;
}

/**
 * The contention suite of book_slot, through the real local state machine and a native calendar:
 * per round, 20 concurrent bookers of one identical slot, or of 20 slots that all overlap pairwise
 * (60 minutes, shifted by 2 minutes). Every round must end with exactly one success, exactly one
 * new event and no hold left on the lock item (only the winner's booked entry); every tenth round also checks that no loser left a
 * pending idempotency claim (20 more reads per round would double the suite's time).
 */
export function describeBookingContention(engine: string, endpoint?: () => string): void {
  describe(`book_slot under contention on ${engine}`, () => {
    let runtime: TestRuntime;
    let calendarId: string;

    beforeAll(async () => {
      runtime = await startTestRuntime({
        clock: fixedClock(NOW),
        defaultTimezone: 'UTC',
        ...(endpoint ? { endpoint: endpoint() } : {}),
      });
      calendarId = (
        await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Contended', time_zone: 'UTC' })
      ).id;
    });

    afterAll(async () => {
      await runtime?.close();
    });

    const slotText = (ms: number) => new Date(ms).toISOString();

    async function eventsOn(dayStart: number) {
      const record = await runtime.registry.requireCalendar(calendarId);
      const { provider, ref } = await runtime.calendars.providerFor(record);
      const page = await provider.listEvents(ref, {
        start: slotText(dayStart),
        end: slotText(dayStart + DAY_MS),
        single_events: true,
        max_results: 100,
      });
      return page.events;
    }

    async function playRound(attempts: Attempt[], dayStart: number, checkClaims: boolean): Promise<void> {
      const settled = await Promise.allSettled(
        attempts.map((a) => runtime.booking.book(LOCAL_OWNER, { calendar_id: calendarId, ...a })),
      );

      const winners = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      const losers = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
      expect(winners).toHaveLength(1);
      for (const loser of losers) {
        expect(
          isDomainError(loser) && ['LOCK_CONTENDED', 'SLOT_TAKEN'].includes(loser.code),
          String(loser),
        ).toBe(true);
      }
      const events = await eventsOn(dayStart);
      expect(events.map((e) => e.id)).toEqual([winners[0]!.event_id]);
      // No hold is left; the winner's released hold stands for its booking (a short-lived entry).
      const lock = await runtime.store.get(lockKey(calendarId), { consistent: true });
      const entries = (lock?.holds ?? []) as Hold[];
      expect(entries.filter((h) => !h.booked)).toEqual([]);
      expect(entries.filter((h) => h.booked?.event_id === winners[0]!.event_id)).toHaveLength(1);
      if (!checkClaims) return;
      const pending = await Promise.all(
        attempts.map(async (a, i) => {
          if (settled[i]!.status === 'fulfilled') return undefined;
          const hash = requestHash({
            calendar_id: calendarId,
            start_ms: Date.parse(a.start),
            end_ms: Date.parse(a.end),
            summary: a.summary,
          });
          return runtime.store.get({
            pk: `IDEM#${storedIdempotencyKey('local-owner', undefined, hash)}`,
            sk: 'BOOKING',
          });
        }),
      );
      expect(pending.filter(Boolean)).toEqual([]);
    }

    it(`lets exactly one of ${BOOKERS} bookers of the identical slot win, ${ROUNDS} rounds in a row`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const dayStart = Date.parse(NOW) + (round + 1) * DAY_MS;
        const start = dayStart + 10 * 60 * MINUTE_MS;
        const attempts = Array.from({ length: BOOKERS }, (_, i) => ({
          summary: `Identical ${round}/${i}`,
          start: slotText(start),
          end: slotText(start + 60 * MINUTE_MS),
        }));
        await playRound(attempts, dayStart, round % 10 === 9);
      }
    }, 240_000);

    it(`lets exactly one of ${BOOKERS} bookers of pairwise-overlapping slots win, ${ROUNDS} rounds in a row`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const dayStart = Date.parse(NOW) + (ROUNDS + round + 1) * DAY_MS;
        const first = dayStart + 10 * 60 * MINUTE_MS;
        // 60-minute slots 2 minutes apart: the first and the last still share 22 minutes.
        const attempts = Array.from({ length: BOOKERS }, (_, i) => ({
          summary: `Overlapping ${round}/${i}`,
          start: slotText(first + 2 * i * MINUTE_MS),
          end: slotText(first + (2 * i + 60) * MINUTE_MS),
        }));
        await playRound(attempts, dayStart, round % 10 === 9);
      }
    }, 240_000);

    it('leaves one event per round and nothing else on the calendar', async () => {
      const record = await runtime.registry.requireCalendar(calendarId);
      const { provider, ref } = await runtime.calendars.providerFor(record);
      const all = await provider.listEvents(ref, {
        start: NOW,
        end: slotText(Date.parse(NOW) + (2 * ROUNDS + 2) * DAY_MS),
        single_events: true,
        max_results: 1000,
      });
      expect(all.events).toHaveLength(2 * ROUNDS);
      expect(new Set(all.events.map((e) => e.start && JSON.stringify(e.start))).size).toBe(2 * ROUNDS);
    });
  });
}
