import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOOKED_VISIBLE_MS } from '../../../lambdas/core/booking/slot-locks.js';
import { DomainError, isDomainError } from '../../../lambdas/core/errors.js';
import {
  type BookingHarness,
  processDied,
  startBookingHarness,
  summaryOf,
  TTL_SECONDS,
} from './booking-harness.js';

const SLOT = { start: '2026-06-02T10:00:00+00:00', end: '2026-06-02T11:00:00+00:00' };
/** Overlaps SLOT by 30 minutes. */
const LATER = { start: '2026-06-02T10:30:00+00:00', end: '2026-06-02T11:30:00+00:00' };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('book_slot with a fault at each step boundary (local state machine, dynalite)', () => {
  let h: BookingHarness;

  beforeEach(async () => {
    h = await startBookingHarness();
  });

  afterEach(async () => {
    await h.close();
  });

  describe('the process dies after Lock', () => {
    beforeEach(() => {
      // Neither Verify nor the Catch path ever runs for Alice: her process is gone.
      const dies = (input: unknown) => {
        if (summaryOf(input) === 'Alice') throw processDied();
      };
      h.faults.before.verify = dies;
      h.faults.before.compensate = dies;
    });

    it('keeps the slot held until the hold expires, then the next booker succeeds', async () => {
      const died = await failure(h.book({ ...SLOT, summary: 'Alice' }));
      expect(died).toBeInstanceOf(Error);
      expect(isDomainError(died)).toBe(false);
      const [left] = await h.holds();
      expect(left?.expires_at_ms).toBe(Date.parse('2026-06-01T00:00:30Z'));

      const early = await failure(h.book({ ...LATER, summary: 'Bob' }));
      expect(early).toMatchObject({ code: 'LOCK_CONTENDED', details: { retry_after_seconds: TTL_SECONDS } });

      h.clock.advance(TTL_SECONDS * 1000);
      const bob = await h.book({ ...LATER, summary: 'Bob' });

      expect(bob).toMatchObject({ summary: 'Bob', start: LATER.start, idempotent_replay: false });
      expect((await h.events()).map((e) => e.id)).toEqual([bob.event_id]);
      expect(await h.holds()).toEqual([]);
    });

    it('lets a retry with the same parameters take over the dead claim once it expired', async () => {
      await failure(h.book({ ...SLOT, summary: 'Alice' }));
      h.faults.before = {};

      const tooSoon = await failure(h.book({ ...SLOT, summary: 'Alice' }));
      expect(tooSoon).toMatchObject({ code: 'LOCK_CONTENDED' });
      expect((tooSoon as DomainError).message).toMatch(/same booking .* already in progress/);

      h.clock.advance(TTL_SECONDS * 1000);
      const retried = await h.book({ ...SLOT, summary: 'Alice' });

      expect((await h.events()).map((e) => e.id)).toEqual([retried.event_id]);
      expect(await h.claim({ ...SLOT, summary: 'Alice' })).toMatchObject({
        status: 'completed',
        owner: retried.booking_id,
      });
      expect(await h.holds()).toEqual([]);
    });
  });

  describe('the provider write fails', () => {
    it('releases the hold, forgets the claim and records nothing', async () => {
      h.faults.beforeCreateEvent = () => {
        throw new DomainError('PROVIDER_ERROR', 'The calendar service is down; retry later.');
      };

      const error = await failure(h.book({ ...SLOT, summary: 'Alice', idempotency_key: 'k-1' }));

      expect(error).toMatchObject({
        code: 'PROVIDER_ERROR',
        message: 'The calendar service is down; retry later.',
      });
      expect(await h.events()).toEqual([]);
      expect(await h.holds()).toEqual([]);
      expect(await h.claim({ ...SLOT, summary: 'Alice' }, 'k-1')).toBeUndefined();
      expect(h.shadow.recorded).toEqual([]);
    });

    it('lets the retry with the same key book, once the provider is back', async () => {
      h.faults.beforeCreateEvent = () => {
        throw new DomainError('PROVIDER_ERROR', 'down');
      };
      await failure(h.book({ ...SLOT, summary: 'Alice', idempotency_key: 'k-1' }));
      h.faults.beforeCreateEvent = undefined;

      const booked = await h.book({ ...SLOT, summary: 'Alice', idempotency_key: 'k-1' });

      expect(booked.idempotent_replay).toBe(false);
      expect((await h.events()).map((e) => e.id)).toEqual([booked.event_id]);
    });

    it('reports an unexpected provider failure as PROVIDER_ERROR without retrying the write', async () => {
      let calls = 0;
      h.faults.beforeCreateEvent = () => {
        calls++;
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      };

      const error = await failure(h.book({ ...SLOT, summary: 'Alice' }));

      expect(error).toMatchObject({ code: 'PROVIDER_ERROR' });
      expect((error as Error).message).toMatch(/did not confirm the new event \(socket hang up\)/);
      expect(calls).toBe(1);
      expect(await h.holds()).toEqual([]);
    });
  });

  describe('Release fails after the write', () => {
    it('still answers with the booking, and a retry with the same key returns it', async () => {
      h.faults.before.release = () => {
        throw processDied();
      };

      const first = await h.book({ ...SLOT, summary: 'Alice', idempotency_key: 'k-2' });
      h.faults.before = {};
      const again = await h.book({ ...SLOT, summary: 'Alice', idempotency_key: 'k-2' });

      expect(first.idempotent_replay).toBe(false);
      expect(again).toEqual({ ...first, idempotent_replay: true });
      expect((await h.events()).map((e) => e.id)).toEqual([first.event_id]);
      expect(await h.holds()).toEqual([]);
      expect(h.shadow.recorded.map((r) => r.booking.event_id)).toEqual([first.event_id]);
    });

    it('returns the first booking to a retry even when the process died during Release', async () => {
      h.faults.before.release = () => {
        throw processDied();
      };
      h.faults.before.compensate = () => {
        throw processDied();
      };
      const died = await failure(h.book({ ...SLOT, summary: 'Alice', idempotency_key: 'k-3' }));
      expect(isDomainError(died)).toBe(false);
      const [orphan] = await h.events();
      expect(await h.holds()).toHaveLength(1);
      h.faults.before = {};

      // Still within the dead call's hold: the retry replays through the workflow and releases it.
      const retried = await h.book({ ...SLOT, summary: 'Alice', idempotency_key: 'k-3' });

      expect(retried).toMatchObject({ event_id: orphan?.id, idempotent_replay: true });
      expect(await h.events()).toHaveLength(1);
      expect(await h.holds()).toEqual([]);
      expect(await h.claim({ ...SLOT, summary: 'Alice' }, 'k-3')).toMatchObject({ status: 'completed' });
      const replayed = await h.book({ ...SLOT, summary: 'Alice', idempotency_key: 'k-3' });
      expect(replayed).toEqual(retried);
    });
  });

  describe('fencing: a holder whose hold expired cannot write', () => {
    it('refuses the write when the hold expires before it', async () => {
      h.faults.before.write = () => h.clock.advance(TTL_SECONDS * 1000);

      const error = await failure(h.book({ ...SLOT, summary: 'Alice' }));

      expect(error).toMatchObject({ code: 'LOCK_CONTENDED' });
      expect((error as Error).message).toMatch(/longer than its lock allows/);
      expect(await h.events()).toEqual([]);
      expect(await h.holds()).toEqual([]);
    });

    it('refuses the write when less than the fencing margin is left', async () => {
      // 21 s of 30 gone: 9 s left, under the 10 s margin.
      h.faults.before.write = () => h.clock.advance(21_000);

      const error = await failure(h.book({ ...SLOT, summary: 'Alice' }));

      expect(error).toMatchObject({ code: 'LOCK_CONTENDED' });
      expect(await h.events()).toEqual([]);
    });

    it('removes its event when another booker took the slot while the provider wrote', async () => {
      let bob: Awaited<ReturnType<BookingHarness['book']>> | undefined;
      h.faults.beforeCreateEvent = async (draft) => {
        if (draft.summary !== 'Alice') return;
        // Alice's provider call stalls past her hold; Bob books the overlapping slot meanwhile.
        h.clock.advance(TTL_SECONDS * 1000);
        bob = await h.book({ ...LATER, summary: 'Bob' });
      };

      const error = await failure(h.book({ ...SLOT, summary: 'Alice' }));

      expect(error).toMatchObject({ code: 'LOCK_CONTENDED' });
      expect(bob?.summary).toBe('Bob');
      expect((await h.events()).map((e) => e.summary)).toEqual(['Bob']);
      expect(await h.holds()).toEqual([]);
    });
  });

  describe('transient failures', () => {
    it('retries a step that failed transiently and books once', async () => {
      let failures = 0;
      h.faults.before.lock = () => {
        if (failures++ < 2) throw Object.assign(new Error('Rate exceeded'), { name: 'TransientError' });
      };

      const booked = await h.book({ ...SLOT, summary: 'Alice' });

      expect(failures).toBe(3);
      expect((await h.events()).map((e) => e.id)).toEqual([booked.event_id]);
    });
  });

  describe('the same idempotency key, concurrently', () => {
    it('creates one event; every success is that booking', async () => {
      const settled = await Promise.allSettled(
        Array.from({ length: 10 }, () => h.book({ ...SLOT, summary: 'Alice', idempotency_key: 'same' })),
      );

      const booked = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as DomainError] : []));
      expect(booked.length).toBeGreaterThanOrEqual(1);
      expect(new Set(booked.map((b) => b.event_id)).size).toBe(1);
      for (const error of refused) expect(error.code).toBe('LOCK_CONTENDED');
      expect(await h.events()).toHaveLength(1);
    });
  });

  describe('Verify', () => {
    it('refuses a slot the shadow calendar knows to be busy, naming only the interval', async () => {
      h.shadow.busy.push({
        start: Date.parse('2026-06-02T10:45:00Z'),
        end: Date.parse('2026-06-02T12:00:00Z'),
        event_id: 'synced-1',
      });

      const error = await failure(h.book({ ...SLOT, summary: 'Alice' }));

      expect(error).toMatchObject({
        code: 'SLOT_TAKEN',
        details: {
          conflict: {
            source: 'shadow',
            start: '2026-06-02T10:45:00+00:00',
            end: '2026-06-02T12:00:00+00:00',
          },
        },
      });
      expect(await h.holds()).toEqual([]);
    });

    it('names the booking just made, from the lock item, before the provider lists it', async () => {
      const first = await h.book({ ...SLOT, summary: 'Standup' });
      expect(await h.booked()).toEqual([{ event_id: first.event_id, summary: 'Standup' }]);

      const error = await failure(h.book({ ...LATER, summary: 'Clash' }));

      expect(error).toMatchObject({
        code: 'SLOT_TAKEN',
        details: {
          conflict: {
            source: 'booking',
            event_id: first.event_id,
            summary: 'Standup',
            start: '2026-06-02T10:00:00+00:00',
            end: '2026-06-02T11:00:00+00:00',
          },
        },
      });
    });

    it('names the conflicting event on the live calendar; an event that only touches the slot does not conflict', async () => {
      const first = await h.book({ ...SLOT, summary: 'Standup' });
      await h.book({ start: '2026-06-02T11:00:00Z', end: '2026-06-02T11:30:00Z', summary: 'Touching' });
      // Past the booked entries' window: only the provider's listing knows the events now.
      h.clock.advance(BOOKED_VISIBLE_MS);
      expect(await h.booked()).toHaveLength(2);

      const error = await failure(h.book({ ...LATER, summary: 'Clash' }));

      expect(error).toMatchObject({
        code: 'SLOT_TAKEN',
        details: {
          conflict: {
            source: 'calendar',
            event_id: first.event_id,
            summary: 'Standup',
            start: '2026-06-02T10:00:00+00:00',
            end: '2026-06-02T11:00:00+00:00',
          },
        },
      });
      expect((error as Error).message).toMatch(/find_free_slots/);
      // The write that found the conflict dropped the expired entries.
      expect(await h.booked()).toEqual([]);
    });
  });
});
