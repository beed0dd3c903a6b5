import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../lambdas/core/errors.js';
import { type Admission, RequestLimiter } from '../../../lambdas/core/limits/request-limiter.js';
import type { Clock, DocumentStore } from '../../../lambdas/core/ports/index.js';
import type { StoreUnderTest } from '../../adapters/dynamodb/document-store-contract.js';
import { passThroughStore } from '../../support/pass-through-store.js';

/** A clock the test moves by hand. */
function steppedClock(start = Date.parse('2026-11-27T09:00:00Z')) {
  let now = start;
  const clock: Clock = { now: () => new Date(now) };
  const advance = (ms: number) => {
    now += ms;
  };
  return { clock, advance };
}

const ONE_REQUEST = { requests: 1, expensive: 0 };
const ONE_EXPENSIVE = { requests: 1, expensive: 1 };

/** The refusal, or undefined once the admitted spend is written. */
async function refusalOf(admit: Promise<Admission>): Promise<DomainError | undefined> {
  try {
    await (await admit).settled;
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

/** The store, counting its item reads (`get`); everything else passes through. */
function countingReads(store: DocumentStore) {
  const reads = { count: 0 };
  const counted = passThroughStore(store, {
    get: (key, options) => {
      reads.count += 1;
      return store.get(key, options);
    },
  });
  return { counted, reads };
}

/** Counts `admit`'s outcomes over `n` calls made one after the other. */
async function burst(limiter: RequestLimiter, caller: string, n: number, cost = ONE_REQUEST) {
  const refusals: DomainError[] = [];
  for (let i = 0; i < n; i++) {
    const refusal = await refusalOf(limiter.admit(caller, cost));
    if (refusal) refusals.push(refusal);
  }
  return { admitted: n - refusals.length, refusals };
}

/**
 * The request limiter against one engine behind the DocumentStore port (dynalite, DynamoDB
 * Local): the same conditional puts must hold the budgets on both.
 */
export function describeRequestLimiterOn(
  label: string,
  makeStore: () => Promise<StoreUnderTest>,
  /** Vitest's describe options: `needs(…)` for a store on a program npm does not install. */
  options: { skip?: boolean } = {},
): void {
  describe(`RequestLimiter on ${label}`, options, () => {
    let under: StoreUnderTest;
    let store: DocumentStore;
    const defaults = {
      requests: { capacity: 5, periodSeconds: 10 },
      expensive: { capacity: 2, periodSeconds: 60 },
    };

    beforeAll(async () => {
      under = await makeStore();
      store = under.store;
    });
    afterAll(async () => under.close());

    it('admits a burst up to capacity, then refuses with the limit and the seconds to wait', async () => {
      const { clock } = steppedClock();
      const limiter = new RequestLimiter({ store, clock, defaults });
      const { admitted, refusals } = await burst(limiter, `key:${randomUUID()}`, 8);
      expect(admitted).toBe(5);
      expect(refusals).toHaveLength(3);
      expect(refusals[0]!.code).toBe('RATE_LIMITED');
      // One token comes back every 2 s (5 per 10 s).
      expect(refusals[0]!.details).toMatchObject({ limit: 'requests', retryAfterSeconds: 2, rate: '5/10s' });
    });

    it('writes nothing when it refuses', async () => {
      const { clock } = steppedClock();
      const caller = `key:${randomUUID()}`;
      const limiter = new RequestLimiter({ store, clock, defaults });
      await burst(limiter, caller, 5);
      const key = { pk: `RATE#${caller}`, sk: 'BUCKETS' };
      const before = await store.get(key, { consistent: true });
      await burst(limiter, caller, 3);
      expect(await store.get(key, { consistent: true })).toEqual(before);
    });

    it('refills with time, never past capacity', async () => {
      const { clock, advance } = steppedClock();
      const limiter = new RequestLimiter({ store, clock, defaults });
      const caller = `key:${randomUUID()}`;
      await burst(limiter, caller, 5);
      advance(4_000);
      expect((await burst(limiter, caller, 3)).admitted).toBe(2);
      advance(3_600_000);
      expect((await burst(limiter, caller, 7)).admitted).toBe(5);
    });

    it('never lets two callers share a budget', async () => {
      const { clock } = steppedClock();
      const limiter = new RequestLimiter({ store, clock, defaults });
      const [a, b] = [`key:${randomUUID()}`, `key:${randomUUID()}`];
      expect((await burst(limiter, a, 6)).admitted).toBe(5);
      expect((await burst(limiter, b, 6)).admitted).toBe(5);
    });

    it('spends the stricter budget on expensive calls, and the request budget with it', async () => {
      const { clock } = steppedClock();
      const limiter = new RequestLimiter({ store, clock, defaults });
      const caller = `key:${randomUUID()}`;
      const expensive = await burst(limiter, caller, 3, ONE_EXPENSIVE);
      expect(expensive.admitted).toBe(2);
      expect(expensive.refusals[0]!.details).toMatchObject({ limit: 'expensive', retryAfterSeconds: 30 });
      expect((await burst(limiter, caller, 5)).admitted).toBe(3);
    });

    it("takes a caller's own budget over the server's, and none with off", async () => {
      const { clock } = steppedClock();
      const limiter = new RequestLimiter({ store, clock, defaults });
      const caller = `key:${randomUUID()}`;
      const own = { requests: { capacity: 2, periodSeconds: 10 } };
      const refusals = [];
      for (let i = 0; i < 3; i++) refusals.push(await refusalOf(limiter.admit(caller, ONE_REQUEST, own)));
      expect(refusals.filter(Boolean)).toHaveLength(1);
      const unlimited = `key:${randomUUID()}`;
      for (let i = 0; i < 20; i++)
        await (await limiter.admit(unlimited, ONE_REQUEST, { requests: 'off' })).settled;
    });

    it('loses no spend when an instance admits ahead of its write with a view another instance made stale', async () => {
      const { clock } = steppedClock();
      const caller = `key:${randomUUID()}`;
      const roomy = { requests: { capacity: 100, periodSeconds: 3600 }, expensive: 'off' as const };
      const [a, b] = [0, 1].map(() => new RequestLimiter({ store, clock, defaults: roomy }));
      for (let i = 0; i < 10; i++) expect(await refusalOf(a!.admit(caller, ONE_REQUEST))).toBeUndefined();
      for (let i = 0; i < 10; i++) expect(await refusalOf(b!.admit(caller, ONE_REQUEST))).toBeUndefined();
      // A still believes 90 are left: its put fails on B's version, reads it back, applies its spend.
      expect(await refusalOf(a!.admit(caller, ONE_REQUEST))).toBeUndefined();
      const stored = await store.get({ pk: `RATE#${caller}`, sk: 'BUCKETS' }, { consistent: true });
      expect(stored?.requests_tokens).toBe(79);
    });

    it("starts a new caller's first admission from the read begun ahead, and holds the budget when that read went stale", async () => {
      const { clock } = steppedClock();
      const caller = `key:${randomUUID()}`;
      const { counted, reads } = countingReads(store);
      const [a, b] = [counted, store].map((s) => new RequestLimiter({ store: s, clock, defaults }));
      const ahead = a!.prefetch(caller)!;
      await ahead.read;
      expect(reads.count).toBe(1);
      // Another instance spends 3 of 5 after the read: the read is stale when A admits from it.
      expect((await burst(b!, caller, 3)).admitted).toBe(3);
      expect(await refusalOf(a!.admit(caller, ONE_REQUEST, undefined, ahead))).toBeUndefined();
      // A's put on the stale version failed, so it read the item afresh: 2 reads, none lost.
      expect(reads.count).toBe(2);
      expect((await burst(b!, caller, 3)).admitted).toBe(1);
      // A caller the instance knows is not read ahead; a read begun for another caller is ignored.
      expect(a!.prefetch(caller)).toBeUndefined();
      const other = `key:${randomUUID()}`;
      const before = reads.count;
      expect(await refusalOf(a!.admit(other, ONE_REQUEST, undefined, ahead))).toBeUndefined();
      expect(reads.count).toBe(before + 1);
    });

    it('admits a new caller read ahead at once when its budget is roomy, and only after its put when tight', async () => {
      const { clock } = steppedClock();
      // Puts wait until released: an admission that resolves meanwhile did not wait for its put.
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const gated = passThroughStore(store, {
        put: async (item, options) => {
          await gate;
          return store.put(item, options);
        },
      });
      const limiter = new RequestLimiter({ store: gated, clock, defaults });
      const roomy = `key:${randomUUID()}`;
      const admitting = limiter.admit(roomy, ONE_REQUEST, undefined, limiter.prefetch(roomy));
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const first = await Promise.race([admitting.then(() => 'admitted'), pause(500).then(() => 'waiting')]);
      expect(first).toBe('admitted');
      const admission = await admitting;
      let settled = false;
      void admission.settled.then(() => {
        settled = true;
      });
      const tight = `key:${randomUUID()}`;
      let admittedTight = false;
      const tightAdmission = limiter
        .admit(tight, ONE_REQUEST, { requests: { capacity: 1, periodSeconds: 10 } }, limiter.prefetch(tight))
        .then(() => {
          admittedTight = true;
        });
      await pause(50);
      expect(settled).toBe(false);
      expect(admittedTight).toBe(false);
      release();
      await admission.settled;
      await tightAdmission;
      expect(admittedTight).toBe(true);
      const stored = await store.get({ pk: `RATE#${roomy}`, sk: 'BUCKETS' }, { consistent: true });
      expect(stored?.requests_tokens).toBe(4);
    });

    it("makes no read of its own for a new caller's first admission when the read was begun ahead", async () => {
      const { clock } = steppedClock();
      const caller = `key:${randomUUID()}`;
      const { counted, reads } = countingReads(store);
      const limiter = new RequestLimiter({ store: counted, clock, defaults });
      const ahead = limiter.prefetch(caller);
      expect(await refusalOf(limiter.admit(caller, ONE_REQUEST, undefined, ahead))).toBeUndefined();
      expect(reads.count).toBe(1);
      expect((await burst(limiter, caller, 5)).admitted).toBe(4);
    });

    it('holds the budget across instances writing at once (no more admitted than capacity)', async () => {
      const { clock } = steppedClock();
      const caller = `key:${randomUUID()}`;
      // Four limiters stand for four Lambda instances: each remembers only what it wrote.
      const instances = Array.from({ length: 4 }, () => new RequestLimiter({ store, clock, defaults }));
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) => refusalOf(instances[i % 4]!.admit(caller, ONE_REQUEST))),
      );
      expect(outcomes.filter((o) => o === undefined)).toHaveLength(5);
      expect(outcomes.every((o) => o === undefined || o.code === 'RATE_LIMITED')).toBe(true);
    });
  });
}
