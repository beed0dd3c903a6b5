import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../../../lambdas/adapters/dynamodb/local-dynamodb.js';
import { BOOKED_VISIBLE_MS, lockKey, overlaps, SlotLocks } from '../../../lambdas/core/booking/slot-locks.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import type { DocumentStore } from '../../../lambdas/core/ports/index.js';
import { nodeRandom } from '../../../lambdas/runtime/node-random.js';
import { ManualClock } from './booking-harness.js';

const T0 = '2026-06-01T00:00:00Z';
const H = 3_600_000;
const at = (hours: number) => Date.parse('2026-06-02T00:00:00Z') + hours * H;
const slot = (from: number, to: number) => ({ start_ms: at(from), end_ms: at(to) });

describe('SlotLocks (on dynalite)', () => {
  let dynalite: Awaited<ReturnType<typeof startDynalite>>;
  let client: ReturnType<typeof createLocalDynamoDbClient>;
  let store: DocumentStore;
  let table = 0;

  beforeAll(async () => {
    dynalite = await startDynalite();
    client = createLocalDynamoDbClient(dynalite.endpoint);
  });
  afterAll(async () => {
    client.destroy();
    await dynalite.close();
  });

  async function locks(clock = new ManualClock(T0)) {
    const tableName = `locks-${table++}`;
    await ensureTable(client, tableName);
    store = new DynamoDbDocumentStore({ client, tableName });
    return {
      clock,
      locks: new SlotLocks({ store, clock, random: nodeRandom, pause: async () => undefined, ttlMs: 30_000 }),
    };
  }

  describe('overlaps', () => {
    it('treats intervals as half-open: sharing an instant overlaps, touching does not', () => {
      expect(overlaps(slot(10, 11), slot(10.5, 12))).toBe(true);
      expect(overlaps(slot(10, 11), slot(9, 12))).toBe(true);
      expect(overlaps(slot(10, 11), slot(11, 12))).toBe(false);
      expect(overlaps(slot(11, 12), slot(10, 11))).toBe(false);
    });
  });

  describe('acquire', () => {
    it('grants holds with increasing fencing tokens and the TTL from the clock', async () => {
      const { locks: l } = await locks();

      const first = await l.acquire('cal', 'a', slot(9, 10));
      const second = await l.acquire('cal', 'b', slot(10, 11));

      expect(first).toEqual({ owner: 'a', token: 1, ...slot(9, 10), expires_at_ms: Date.parse(T0) + 30_000 });
      expect(second.token).toBe(2);
      expect((await l.activeHolds('cal')).holds.map((h) => h.owner)).toEqual(['a', 'b']);
    });

    it('refuses an overlapping interval with LOCK_CONTENDED and when to retry', async () => {
      const { locks: l, clock } = await locks();
      await l.acquire('cal', 'a', slot(10, 11));
      clock.advance(12_000);

      const error = await l.acquire('cal', 'b', slot(10.75, 12)).catch((e: unknown) => e);

      expect(isDomainError(error, 'LOCK_CONTENDED')).toBe(true);
      expect(error).toMatchObject({
        details: {
          retry_after_seconds: 18,
          held: [{ start: '2026-06-02T10:00:00+00:00', end: '2026-06-02T11:00:00+00:00' }],
        },
      });
    });

    it('keeps calendars apart', async () => {
      const { locks: l } = await locks();
      await l.acquire('cal-1', 'a', slot(10, 11));

      await expect(l.acquire('cal-2', 'b', slot(10, 11))).resolves.toMatchObject({ owner: 'b', token: 1 });
    });

    it('returns the same hold to its owner instead of taking a second one', async () => {
      const { locks: l } = await locks();
      const first = await l.acquire('cal', 'a', slot(10, 11));

      expect(await l.acquire('cal', 'a', slot(10, 11))).toEqual(first);
      expect((await l.activeHolds('cal')).holds).toHaveLength(1);
    });

    it('ignores and drops an expired hold, judged by the injected clock', async () => {
      const { locks: l, clock } = await locks();
      await l.acquire('cal', 'a', slot(10, 11));
      clock.advance(30_000);

      const taken = await l.acquire('cal', 'b', slot(10, 11));

      expect(taken.token).toBe(2);
      const item = await store.get(lockKey('cal'), { consistent: true });
      expect(((item?.holds ?? []) as { owner: string }[]).map((h) => h.owner)).toEqual(['b']);
      expect(item?.ttl).toBe(Math.ceil((taken.expires_at_ms + 24 * H) / 1000));
    });

    it('grants every one of many concurrent disjoint holds, each its own token', async () => {
      const { locks: l } = await locks();

      const holds = await Promise.all(
        Array.from({ length: 12 }, (_, i) => l.acquire('cal', `o${i}`, slot(i, i + 1))),
      );

      expect(new Set(holds.map((h) => h.token)).size).toBe(12);
      expect((await l.activeHolds('cal')).holds).toHaveLength(12);
      expect((await l.activeHolds('cal')).fence).toBe(12);
    });

    it('grants exactly one of many concurrent overlapping holds', async () => {
      const { locks: l } = await locks();

      const settled = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => l.acquire('cal', `o${i}`, slot(10 + i / 20, 11 + i / 20))),
      );

      expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
      for (const s of settled)
        if (s.status === 'rejected') expect(isDomainError(s.reason, 'LOCK_CONTENDED')).toBe(true);
    });
  });

  describe('isHeld', () => {
    it('is true for the owner and token while the hold has more than the margin left', async () => {
      const { locks: l, clock } = await locks();
      const hold = await l.acquire('cal', 'a', slot(10, 11));
      clock.advance(20_000);

      expect(await l.isHeld('cal', hold)).toBe(true);
      expect(await l.isHeld('cal', hold, 9_000)).toBe(true);
      expect(await l.isHeld('cal', hold, 10_000)).toBe(false);
      expect(await l.isHeld('cal', { owner: 'a', token: hold.token + 1 })).toBe(false);
      expect(await l.isHeld('cal', { owner: 'b', token: hold.token })).toBe(false);
      clock.advance(10_000);
      expect(await l.isHeld('cal', hold)).toBe(false);
    });
  });

  describe('release', () => {
    it('drops only its own hold and is a no-op the second time', async () => {
      const { locks: l } = await locks();
      const a = await l.acquire('cal', 'a', slot(9, 10));
      await l.acquire('cal', 'b', slot(10, 11));

      expect(await l.release('cal', a)).toBe(true);
      expect(await l.release('cal', a)).toBe(false);
      expect((await l.activeHolds('cal')).holds.map((h) => h.owner)).toEqual(['b']);
    });

    it('does not drop a newer hold of the same owner name with another token', async () => {
      const { locks: l, clock } = await locks();
      const old = await l.acquire('cal', 'a', slot(10, 11));
      clock.advance(30_000);
      const renewed = await l.acquire('cal', 'a', slot(10, 11));

      expect(await l.release('cal', old)).toBe(false);
      expect(await l.isHeld('cal', renewed)).toBe(true);
    });

    it('given the booking, leaves an entry that refuses overlapping holds with SLOT_TAKEN for a while', async () => {
      const { locks: l, clock } = await locks();
      const a = await l.acquire('cal', 'a', slot(10, 11));
      await l.release('cal', a, { event_id: 'e1', summary: 'Standup' });

      const error = await l.acquire('cal', 'b', slot(10.5, 11.5), 'Europe/Paris').catch((e: unknown) => e);
      expect(isDomainError(error, 'SLOT_TAKEN')).toBe(true);
      expect(error).toMatchObject({
        details: {
          conflict: {
            source: 'booking',
            event_id: 'e1',
            summary: 'Standup',
            start: '2026-06-02T12:00:00+02:00',
            end: '2026-06-02T13:00:00+02:00',
          },
        },
      });
      expect(await l.isHeld('cal', a)).toBe(false);
      expect(await l.acquire('cal', 'c', slot(11, 12))).toMatchObject({ owner: 'c' });

      // Past the window (and c's 30 s hold): the slot is the provider listing's business again.
      clock.advance(BOOKED_VISIBLE_MS);
      await expect(l.acquire('cal', 'b', slot(10.5, 11.5))).resolves.toMatchObject({ owner: 'b' });
    });

    it('keeps the fence counter, so tokens never repeat on the calendar', async () => {
      const { locks: l } = await locks();
      const a = await l.acquire('cal', 'a', slot(10, 11));
      await l.release('cal', a);

      expect((await l.acquire('cal', 'b', slot(10, 11))).token).toBe(2);
    });
  });
});
