import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDomainError } from '../../../lambdas/core/errors.js';
import {
  type Condition,
  ConditionFailedError,
  type DocumentStore,
  type ItemKey,
  type QueryOptions,
  type StoredItem,
} from '../../../lambdas/core/ports/index.js';

export interface StoreUnderTest {
  store: DocumentStore;
  close(): Promise<void>;
}

/** A fixed "now" in epoch seconds: expiry conditions compare against it, never the system clock. */
const NOW = 1_800_000_000;

/** A partition no other test touches, so tests share one table without seeing each other. */
function freshPartition(entity: string): string {
  return `${entity}#${randomUUID()}`;
}

function sortKey(n: number): string {
  return `ITEM#${String(n).padStart(4, '0')}`;
}

async function expectConditionFailed(write: Promise<void>, key: ItemKey): Promise<void> {
  const error = await write.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConditionFailedError);
  expect((error as ConditionFailedError).key).toEqual({ pk: key.pk, sk: key.sk });
  expect((error as ConditionFailedError).cause).toBeDefined();
}

/** True when the write happened, false when its condition failed; any other error propagates. */
async function conditionHolds(write: Promise<void>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/** Every page of a query, following cursors until none is left. */
async function allPages(store: DocumentStore, options: QueryOptions): Promise<StoredItem[][]> {
  const pages: StoredItem[][] = [];
  let cursor: string | undefined;
  do {
    const page = await store.query({ ...options, cursor });
    pages.push(page.items);
    cursor = page.cursor;
    expect(pages.length).toBeLessThan(1_000);
  } while (cursor);
  return pages;
}

/** Retries a read until `accept` holds: the index is eventually consistent on real engines. */
async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < 20 && !accept(value); attempt++) {
    await sleep(100);
    value = await read();
  }
  return value;
}

/**
 * One behavioural suite for every engine behind the DocumentStore port (dynalite, DynamoDB Local).
 * `makeStore` is called once per suite and must give a store on a fresh, empty table.
 */
export function describeDocumentStoreContract(label: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`DocumentStore contract: ${label}`, () => {
    let target: StoreUnderTest;
    let store: DocumentStore;

    beforeAll(async () => {
      target = await makeStore();
      store = target.store;
    });
    afterAll(async () => {
      await target?.close();
    });

    describe('get and put', () => {
      it('returns undefined for a key that was never written', async () => {
        expect(await store.get({ pk: freshPartition('NONE'), sk: 'META' })).toBeUndefined();
      });

      it('round-trips nested objects, arrays, numbers, booleans, null and empty values', async () => {
        const item = {
          pk: freshPartition('DOC'),
          sk: 'META',
          title: 'Weekly sync ✓ «Zürich»',
          count: 42,
          negative: -7,
          ratio: -0.125,
          largestSafe: Number.MAX_SAFE_INTEGER,
          on: true,
          off: false,
          nothing: null,
          emptyText: '',
          tags: ['a', 'b', 'a'],
          mixed: [1, 'two', false, null, { three: 3 }],
          nested: { level1: { level2: { grid: [[1, 2], [3]], when: '2026-03-15T10:00:00-04:00' } } },
          emptyList: [],
          emptyMap: {},
        };

        await store.put({ ...item, notStored: undefined, nested: { ...item.nested, alsoNot: undefined } });

        expect(await store.get({ pk: item.pk, sk: item.sk }, { consistent: true })).toStrictEqual(item);
      });

      it('replaces the whole item on an unconditional put', async () => {
        const key = { pk: freshPartition('DOC'), sk: 'META' };
        await store.put({ ...key, a: 1, b: 2 });

        await store.put({ ...key, b: 3 });

        expect(await store.get(key, { consistent: true })).toStrictEqual({ ...key, b: 3 });
      });

      it('stores the ttl attribute and still returns the item after its ttl has passed', async () => {
        const key = { pk: freshPartition('LOCK'), sk: 'META' };
        await store.put({ ...key, ttl: NOW - 3_600, owner: 'a' });

        expect(await store.get(key, { consistent: true })).toStrictEqual({
          ...key,
          ttl: NOW - 3_600,
          owner: 'a',
        });
      });
    });

    describe('conditional put', () => {
      it('creates with not_exists once, then fails with ConditionFailedError and keeps the first item', async () => {
        const key = { pk: freshPartition('KEY'), sk: 'META' };
        const condition: Condition = { op: 'not_exists' };

        await store.put({ ...key, owner: 'first' }, { condition });
        await expectConditionFailed(store.put({ ...key, owner: 'second' }, { condition }), key);

        expect(await store.get(key, { consistent: true })).toStrictEqual({ ...key, owner: 'first' });
      });

      it('updates only an existing item with exists', async () => {
        const key = { pk: freshPartition('KEY'), sk: 'META' };

        await expectConditionFailed(store.put({ ...key, v: 1 }, { condition: { op: 'exists' } }), key);
        expect(await store.get(key, { consistent: true })).toBeUndefined();

        await store.put({ ...key, v: 1 });
        await store.put({ ...key, v: 2 }, { condition: { op: 'exists' } });
        expect(await store.get(key, { consistent: true })).toStrictEqual({ ...key, v: 2 });
      });

      it('accepts a write whose expected version matches and rejects a stale one', async () => {
        const key = { pk: freshPartition('CAL'), sk: 'META' };
        await store.put({ ...key, version: 1, name: 'one' });

        await store.put(
          { ...key, version: 2, name: 'two' },
          { condition: { op: 'eq', attribute: 'version', value: 1 } },
        );
        await expectConditionFailed(
          store.put(
            { ...key, version: 2, name: 'stale' },
            { condition: { op: 'eq', attribute: 'version', value: 1 } },
          ),
          key,
        );

        expect(await store.get(key, { consistent: true })).toStrictEqual({ ...key, version: 2, name: 'two' });
      });

      it('takes over a lock only when it is absent or expired (or(not_exists, lt expiresAt now))', async () => {
        const key = { pk: freshPartition('LOCK'), sk: 'LOCK' };
        const acquire: Condition = {
          op: 'or',
          conditions: [{ op: 'not_exists' }, { op: 'lt', attribute: 'expiresAt', value: NOW }],
        };

        await store.put({ ...key, owner: 'a', expiresAt: NOW + 30 }, { condition: acquire });
        await expectConditionFailed(
          store.put({ ...key, owner: 'b', expiresAt: NOW + 30 }, { condition: acquire }),
          key,
        );
        // Expiring exactly now is not yet expired: lt is strict.
        await store.put({ ...key, owner: 'a', expiresAt: NOW });
        await expectConditionFailed(
          store.put({ ...key, owner: 'b', expiresAt: NOW + 30 }, { condition: acquire }),
          key,
        );
        await store.put({ ...key, owner: 'a', expiresAt: NOW - 1 });
        await store.put({ ...key, owner: 'b', expiresAt: NOW + 30 }, { condition: acquire });

        expect(await store.get(key, { consistent: true })).toStrictEqual({
          ...key,
          owner: 'b',
          expiresAt: NOW + 30,
        });
      });

      it('compares numbers and strings with every operator', async () => {
        const key = { pk: freshPartition('CMP'), sk: 'META' };
        const item = { ...key, score: 10, at: '2026-03-15T10:00:00Z' };
        await store.put(item);
        const cases: Array<[Condition, boolean]> = [
          [{ op: 'eq', attribute: 'score', value: 10 }, true],
          [{ op: 'eq', attribute: 'score', value: '10' }, false],
          [{ op: 'ne', attribute: 'score', value: 10 }, false],
          [{ op: 'ne', attribute: 'score', value: 11 }, true],
          [{ op: 'lt', attribute: 'score', value: 10 }, false],
          [{ op: 'lt', attribute: 'score', value: 10.5 }, true],
          [{ op: 'le', attribute: 'score', value: 10 }, true],
          [{ op: 'le', attribute: 'score', value: 9 }, false],
          [{ op: 'gt', attribute: 'score', value: 9 }, true],
          [{ op: 'gt', attribute: 'score', value: 10 }, false],
          [{ op: 'ge', attribute: 'score', value: 10 }, true],
          [{ op: 'ge', attribute: 'score', value: 11 }, false],
          [{ op: 'gt', attribute: 'score', value: -100 }, true],
          [{ op: 'lt', attribute: 'at', value: '2026-03-15T10:00:01Z' }, true],
          [{ op: 'gt', attribute: 'at', value: '2026-03-15T10:00:01Z' }, false],
        ];

        const outcomes = [];
        for (const [condition] of cases) {
          outcomes.push(await conditionHolds(store.put(item, { condition })));
        }

        expect(outcomes).toEqual(cases.map(([, holds]) => holds));
      });

      it('fails every comparison, ne included, on a missing attribute', async () => {
        const key = { pk: freshPartition('CMP'), sk: 'META' };
        await store.put({ ...key, present: 1 });

        for (const op of ['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const) {
          await expectConditionFailed(
            store.put({ ...key, present: 2 }, { condition: { op, attribute: 'absent', value: 1 } }),
            key,
          );
        }
        expect(await store.get(key, { consistent: true })).toStrictEqual({ ...key, present: 1 });
      });

      it('combines conditions with and/or, nested', async () => {
        const key = { pk: freshPartition('HOLD'), sk: 'META' };
        const item = { ...key, owner: 'a', state: 'held' };
        await store.put(item);
        const owner = (value: string): Condition => ({ op: 'eq', attribute: 'owner', value });
        const state = (value: string): Condition => ({ op: 'eq', attribute: 'state', value });
        const cases: Array<[Condition, boolean]> = [
          [{ op: 'and', conditions: [owner('a'), state('held')] }, true],
          [{ op: 'and', conditions: [owner('a'), state('free')] }, false],
          [{ op: 'or', conditions: [owner('b'), state('held')] }, true],
          [{ op: 'or', conditions: [owner('b'), state('free')] }, false],
          [{ op: 'and', conditions: [owner('a')] }, true],
          [
            {
              op: 'and',
              conditions: [
                { op: 'exists' },
                {
                  op: 'or',
                  conditions: [owner('b'), { op: 'and', conditions: [owner('a'), state('held')] }],
                },
              ],
            },
            true,
          ],
          [{ op: 'or', conditions: [{ op: 'not_exists' }, { op: 'and', conditions: [owner('b')] }] }, false],
        ];

        const outcomes = [];
        for (const [condition] of cases) {
          outcomes.push(await conditionHolds(store.put(item, { condition })));
        }

        expect(outcomes).toEqual(cases.map(([, holds]) => holds));
      });

      it('treats reserved words, punctuation in names and expression-like values literally', async () => {
        const key = { pk: freshPartition('ODD'), sk: 'META' };
        const sneaky = 'x) OR attribute_not_exists(pk';
        const item = { ...key, status: 'ok', 'a.b': 1, 'x-y': sneaky, '#h': ':v0', ttl: NOW };
        await store.put(item);
        const all = (value: string): Condition => ({
          op: 'and',
          conditions: [
            { op: 'eq', attribute: 'status', value: 'ok' },
            { op: 'eq', attribute: 'a.b', value: 1 },
            { op: 'eq', attribute: 'x-y', value },
            { op: 'eq', attribute: '#h', value: ':v0' },
            { op: 'eq', attribute: 'ttl', value: NOW },
          ],
        });

        await store.put(item, { condition: all(sneaky) });
        await expectConditionFailed(store.put({ ...item, status: 'changed' }, { condition: all('x') }), key);

        expect(await store.get(key, { consistent: true })).toStrictEqual(item);
      });

      it('lets exactly one of 20 concurrent not_exists puts on one key win, round after round', async () => {
        for (let round = 0; round < 10; round++) {
          const key = { pk: freshPartition('RACE'), sk: 'LOCK' };

          const outcomes = await Promise.allSettled(
            Array.from({ length: 20 }, (_, writer) =>
              store.put({ ...key, writer }, { condition: { op: 'not_exists' } }),
            ),
          );

          const winners = outcomes.flatMap((outcome, writer) =>
            outcome.status === 'fulfilled' ? [writer] : [],
          );
          expect(winners).toHaveLength(1);
          for (const outcome of outcomes) {
            if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(ConditionFailedError);
          }
          expect(await store.get(key, { consistent: true })).toStrictEqual({ ...key, writer: winners[0] });
        }
      });
    });

    describe('delete', () => {
      it('deletes only when the condition holds', async () => {
        const key = { pk: freshPartition('LOCK'), sk: 'LOCK' };
        await store.put({ ...key, owner: 'a' });

        await expectConditionFailed(
          store.delete(key, { condition: { op: 'eq', attribute: 'owner', value: 'b' } }),
          key,
        );
        expect(await store.get(key, { consistent: true })).toStrictEqual({ ...key, owner: 'a' });

        await store.delete(key, { condition: { op: 'eq', attribute: 'owner', value: 'a' } });
        expect(await store.get(key, { consistent: true })).toBeUndefined();
      });

      it('deletes a missing item silently, unless the condition requires it to exist', async () => {
        const key = { pk: freshPartition('GONE'), sk: 'META' };

        await store.delete(key);
        await expectConditionFailed(store.delete(key, { condition: { op: 'exists' } }), key);
      });
    });

    describe('query', () => {
      let partition: string;
      const count = 250;
      const expectedKeys = Array.from({ length: count }, (_, n) => sortKey(n));

      beforeAll(async () => {
        partition = freshPartition('LIST');
        // Written out of order so that insertion order cannot pass for sort order.
        const items = expectedKeys.map((sk, n) => ({ pk: partition, sk, n }));
        await store.batchPut([
          ...items.filter((_, n) => n % 2 === 1),
          ...items.filter((_, n) => n % 2 === 0),
        ]);
        // The same sort keys in a neighbouring partition must never leak into results.
        await store.batchPut(expectedKeys.slice(0, 30).map((sk) => ({ pk: `${partition}X`, sk })));
      });

      it('returns one partition in ascending sort-key order', async () => {
        const pages = await allPages(store, { partition, consistent: true });

        expect(pages.flat().map((item) => item.sk)).toEqual(expectedKeys);
        expect(pages.flat()[3]).toStrictEqual({ pk: partition, sk: sortKey(3), n: 3 });
      });

      it('pages with limit and cursor without dropping or repeating an item', async () => {
        const pages = await allPages(store, { partition, limit: 7, consistent: true });

        expect(pages.flat().map((item) => item.sk)).toEqual(expectedKeys);
        expect(pages.every((page) => page.length <= 7)).toBe(true);
        expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(count / 7));
        expect(pages.length).toBeLessThanOrEqual(Math.ceil(count / 7) + 1);
      });

      it('pages in descending order within a prefix', async () => {
        const pages = await allPages(store, { partition, beginsWith: 'ITEM#01', descending: true, limit: 9 });

        expect(pages.flat().map((item) => item.sk)).toEqual(expectedKeys.slice(100, 200).reverse());
      });

      it('selects sort keys by prefix', async () => {
        const page = await store.query({ partition, beginsWith: 'ITEM#024', consistent: true });

        expect(page.items.map((item) => item.sk)).toEqual(expectedKeys.slice(240, 250));
        expect(page.cursor).toBeUndefined();
      });

      it('treats an empty prefix as the whole partition', async () => {
        const pages = await allPages(store, { partition, beginsWith: '', consistent: true });

        expect(pages.flat().map((item) => item.sk)).toEqual(expectedKeys);
      });

      it('selects an inclusive time range with between on ISO timestamps, newest first when descending', async () => {
        const events = freshPartition('CAL');
        const days = ['01', '02', '03', '04', '05', '06'];
        await store.batchPut(days.map((day) => ({ pk: events, sk: `EVT#2026-03-${day}T09:00:00Z` })));

        const page = await store.query({
          partition: events,
          between: { from: 'EVT#2026-03-02T00:00:00Z', to: 'EVT#2026-03-04T09:00:00Z' },
          descending: true,
        });

        expect(page.items.map((item) => item.sk)).toEqual([
          'EVT#2026-03-04T09:00:00Z',
          'EVT#2026-03-03T09:00:00Z',
          'EVT#2026-03-02T09:00:00Z',
        ]);
      });

      it('returns an empty page for an unknown partition', async () => {
        expect(await store.query({ partition: freshPartition('NONE') })).toEqual({ items: [] });
      });

      it('rejects a cursor that is malformed or from another query with INVALID_INPUT', async () => {
        const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const cursors = [
          'not a cursor!',
          Buffer.from('hello').toString('base64url'),
          encode([partition, sortKey(1)]),
          encode({ pk: partition }),
          encode({ pk: partition, sk: 5 }),
          encode({ pk: partition, sk: sortKey(1), extra: 'x' }),
          encode({ pk: `${partition}X`, sk: sortKey(1) }),
        ];

        for (const cursor of cursors) {
          const error = await store.query({ partition, cursor }).catch((thrown: unknown) => thrown);
          expect(isDomainError(error, 'INVALID_INPUT'), cursor).toBe(true);
        }
      });

      it('queries the secondary index: only items with index keys, in index order, fully projected', async () => {
        const owner = freshPartition('OWNER');
        const base = freshPartition('KEYS');
        const indexed = ['2026-03-05', '2026-03-01', '2026-03-03', '2026-03-04', '2026-03-02'].map(
          (day, n) => ({
            pk: base,
            sk: `KEY#${n}`,
            gsi1pk: owner,
            gsi1sk: `CREATED#${day}`,
            label: `key ${n}`,
          }),
        );
        await store.batchPut([...indexed, { pk: base, sk: 'KEY#unindexed', label: 'no index keys' }]);
        const expected = [...indexed].sort((a, b) => a.gsi1sk.localeCompare(b.gsi1sk));

        const page = await eventually(
          // consistent is ignored on the index rather than rejected.
          () => store.query({ index: 'gsi1', partition: owner, consistent: true }),
          (result) => result.items.length === expected.length,
        );
        const pages = await allPages(store, { index: 'gsi1', partition: owner, limit: 2, descending: true });
        const cursorFromIndex = (await store.query({ index: 'gsi1', partition: owner, limit: 1 })).cursor;

        expect(page.items).toStrictEqual(expected);
        expect(pages.flat()).toStrictEqual([...expected].reverse());
        expect(cursorFromIndex).toBeDefined();
        const misuse = await store
          .query({ partition: owner, cursor: cursorFromIndex })
          .catch((thrown: unknown) => thrown);
        expect(isDomainError(misuse, 'INVALID_INPUT')).toBe(true);
      });
    });

    describe('batchPut and batchGet', () => {
      it('writes 120 items and reads back 130 keys, leaving the 10 missing ones out', async () => {
        const partition = freshPartition('BATCH');
        const items = Array.from({ length: 120 }, (_, n) => ({
          pk: partition,
          sk: sortKey(n),
          n,
          payload: { text: 'x'.repeat(200), list: [n, n + 1] },
        }));
        const keys = [...items.map(({ pk, sk }) => ({ pk, sk }))];
        for (let n = 120; n < 130; n++) keys.splice((n - 120) * 12, 0, { pk: partition, sk: sortKey(n) });

        await store.batchPut(items);
        const found = await store.batchGet<(typeof items)[number]>(keys);

        expect(keys).toHaveLength(130);
        expect([...found].sort((a, b) => a.n - b.n)).toStrictEqual(items);
      });

      it('keeps the last of duplicate keys in one batchPut and returns a duplicate key once', async () => {
        const key = { pk: freshPartition('BATCH'), sk: 'META' };

        await store.batchPut([
          { ...key, v: 1 },
          { ...key, v: 2 },
        ]);

        expect(await store.batchGet([key, key])).toStrictEqual([{ ...key, v: 2 }]);
      });

      it('accepts empty batches', async () => {
        await store.batchPut([]);
        await store.batchDelete([]);
        expect(await store.batchGet([])).toEqual([]);
      });
    });

    describe('batchDelete', () => {
      it('deletes 60 of 70 items, a duplicate and a missing key included, and leaves the other 10', async () => {
        const partition = freshPartition('BATCH');
        const items = Array.from({ length: 70 }, (_, n) => ({ pk: partition, sk: sortKey(n), n }));
        await store.batchPut(items);
        const doomed = items.slice(0, 60).map(({ pk, sk }) => ({ pk, sk }));

        await store.batchDelete([...doomed, doomed[0]!, { pk: partition, sk: sortKey(999) }]);

        const left = await store.query<(typeof items)[number]>({ partition, consistent: true });
        expect(left.items.map((item) => item.n)).toStrictEqual([60, 61, 62, 63, 64, 65, 66, 67, 68, 69]);
      });
    });
  });
}
