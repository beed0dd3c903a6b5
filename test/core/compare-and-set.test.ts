import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareAndSet } from '../../lambdas/core/compare-and-set.js';
import { DomainError, isDomainError } from '../../lambdas/core/errors.js';
import type { DocumentStore, ItemKey } from '../../lambdas/core/ports/index.js';
import { linearJitter } from '../../lambdas/core/retry.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/** One counter increment as an optimistic round: read, then write on the condition that it is unchanged. */
async function incrementRound(store: DocumentStore, key: ItemKey, beforeWrite?: () => Promise<void>) {
  const current = await store.get(key, { consistent: true });
  const count = typeof current?.count === 'number' ? current.count : 0;
  await beforeWrite?.();
  await store.put(
    { ...key, count: count + 1 },
    { condition: current ? { op: 'eq', attribute: 'count', value: count } : { op: 'not_exists' } },
  );
  return count + 1;
}

async function countOf(store: DocumentStore, key: ItemKey): Promise<unknown> {
  return (await store.get(key, { consistent: true }))?.count;
}

describe('compareAndSet (on dynalite)', () => {
  let runtime: TestRuntime;
  let n = 0;
  const freshKey = (): ItemKey => ({ pk: 'TEST#cas', sk: `counter-${++n}` });

  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(async () => {
    await runtime.close();
  });

  it('loses no increment when twelve writers race on one item', async () => {
    // Arrange
    const key = freshKey();
    const writers = 12;

    // Act
    const results = await Promise.all(
      Array.from({ length: writers }, () =>
        compareAndSet(() => incrementRound(runtime.store, key), { maxAttempts: writers }),
      ),
    );

    // Assert: each writer saw a distinct count, and the item holds all of them
    expect(new Set(results).size).toBe(writers);
    expect(await countOf(runtime.store, key)).toBe(writers);
  });

  it('gives up after maxAttempts with the exhausted error when every round loses', async () => {
    // Arrange: another writer always moves the counter on between this round's read and write
    const key = freshKey();
    const rounds: number[] = [];
    const rival = () => incrementRound(runtime.store, key).then(() => undefined);

    // Act
    const failure = await compareAndSet(
      (attempt) => {
        rounds.push(attempt);
        return incrementRound(runtime.store, key, rival);
      },
      { maxAttempts: 3, exhausted: () => new DomainError('CONFLICT', 'Too busy; retry.') },
    ).catch((error: unknown) => error);

    // Assert
    expect(isDomainError(failure, 'CONFLICT')).toBe(true);
    expect(rounds).toEqual([1, 2, 3]);
    expect(await countOf(runtime.store, key)).toBe(3); // the rival's three, none of ours
  });

  it('never repeats a round that refused on its own', async () => {
    // Arrange
    let rounds = 0;

    // Act
    const failure = await compareAndSet(
      async () => {
        rounds += 1;
        throw new DomainError('QUOTA_EXCEEDED', 'Used up for today.');
      },
      { maxAttempts: 5 },
    ).catch((error: unknown) => error);

    // Assert
    expect(isDomainError(failure, 'QUOTA_EXCEEDED')).toBe(true);
    expect(rounds).toBe(1);
  });

  it('treats what isLostRace accepts as a lost race, pausing by the backoff between rounds', async () => {
    // Arrange: a create-only write whose first two names are taken (as a head number can be)
    const pauses: number[] = [];
    const taken = new Set(['1', '2']);
    class Taken extends Error {}

    // Act
    const won = await compareAndSet(
      async (attempt) => {
        if (taken.has(String(attempt))) throw new Taken();
        return attempt;
      },
      {
        maxAttempts: 5,
        isLostRace: (error) => error instanceof Taken,
        backoff: linearJitter({ stepMs: 10, maxSteps: 8 }),
        random: () => 0.5,
        sleep: async (ms) => void pauses.push(ms),
      },
    );

    // Assert
    expect(won).toBe(3);
    expect(pauses).toEqual([5, 10]);
  });
});
