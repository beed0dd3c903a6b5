import { compareAndSet } from '../compare-and-set.js';
import { DomainError } from '../errors.js';
import { ConditionFailedError, type DocumentStore, type ItemKey, type StoredItem } from '../ports/index.js';

/**
 * Attempts before giving up on a record that other writers keep changing. Every lost race means
 * another writer won, so N concurrent writers need at most N attempts each; 20 covers any
 * realistic number of agents editing one rule at once.
 */
const MAX_ATTEMPTS = 20;

/**
 * Read → change → write conditioned on the `version` read (`eq version n`), so two writers never
 * lose an update. With `expectedVersion` the caller's view must still be current: a record changed
 * since is STALE_WRITE (the caller re-reads and decides). Without it the change is re-applied to
 * the newest record after a lost race, so both patches land.
 *
 * @example
 * await updateVersioned(store, key, ProjectItem.parse, (p) => ({ ...p, name: 'New' }), { what: 'project "p1"' });
 */
export async function updateVersioned<T extends { version: number }>(
  store: DocumentStore,
  key: ItemKey,
  parse: (raw: unknown) => T,
  change: (current: T) => T,
  options: {
    what: string;
    notFound: () => DomainError;
    expectedVersion?: number | undefined /** Index attributes of the written item, from the record. */;
    index?: (record: T) => Partial<StoredItem>;
  },
): Promise<T> {
  return compareAndSet(
    async () => {
      const raw = await store.get(key, { consistent: true });
      if (!raw) throw options.notFound();
      const current = parse(raw);
      if (options.expectedVersion !== undefined && options.expectedVersion !== current.version)
        throw stale(options.what, current.version);
      const next = { ...change(current), version: current.version + 1 };
      try {
        await store.put(
          { ...key, ...options.index?.(next), ...next },
          { condition: { op: 'eq', attribute: 'version', value: current.version } },
        );
      } catch (error) {
        // The caller's view is out of date: theirs to re-read, not ours to redo.
        if (error instanceof ConditionFailedError && options.expectedVersion !== undefined)
          throw stale(options.what, current.version + 1);
        throw error;
      }
      return next;
    },
    {
      maxAttempts: MAX_ATTEMPTS,
      exhausted: () =>
        new DomainError(
          'STALE_WRITE',
          `The ${options.what} kept changing under concurrent writers; retry in a moment.`,
          {},
        ),
    },
  );
}

function stale(what: string, version: number): DomainError {
  return new DomainError(
    'STALE_WRITE',
    `The ${what} changed since you read it (now at version ${version} or later). Read it again, then repeat the change with the new version.`,
    { current_version: version },
  );
}
