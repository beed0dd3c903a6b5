import { DomainError } from '../errors.js';

/**
 * The document-store port: one table of items addressed by a partition key (`pk`) and a sort key
 * (`sk`), with one secondary index (`gsi1pk`/`gsi1sk`). DynamoDB is the only implementation
 * (dynalite locally); the port exposes only what both support: single-item conditional writes,
 * queries and batch writes — no transactions, and no reliance on TTL deletion (`ttl` only
 * garbage-collects; expiry must be checked in conditions and on read).
 */

/** Every stored item has its keys; other attributes are JSON-compatible values. */
export interface StoredItem {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  /** Epoch seconds after which DynamoDB may delete the item. Never relied on for correctness. */
  ttl?: number;
  [attribute: string]: unknown;
}

export interface ItemKey {
  pk: string;
  sk: string;
}

/**
 * A condition on the item currently stored under the written key, checked atomically with the
 * write. `exists`/`not_exists` test the item itself; comparisons test one top-level attribute
 * (a missing attribute fails every comparison).
 */
export type Condition =
  | { op: 'exists' }
  | { op: 'not_exists' }
  | { op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'; attribute: string; value: string | number | boolean }
  | { op: 'and' | 'or'; conditions: Condition[] };

export interface QueryOptions {
  /** Query the table (default) or the secondary index. */
  index?: 'table' | 'gsi1';
  /** The partition key value (`pk`, or `gsi1pk` on the index). */
  partition: string;
  /** Only sort keys starting with this prefix. */
  beginsWith?: string;
  /** Only sort keys within [from, to] (inclusive, lexicographic). */
  between?: { from: string; to: string };
  /** Page size; the store may return fewer. */
  limit?: number;
  /** Opaque cursor from a previous page. */
  cursor?: string;
  /** Descending sort-key order. */
  descending?: boolean;
  /** Strongly consistent read (table only; ignored on the index, which is eventually consistent). */
  consistent?: boolean;
}

export interface QueryPage<T extends StoredItem = StoredItem> {
  items: T[];
  /** Present when more items may follow. */
  cursor?: string;
}

/**
 * The port itself. Implementations throw {@link ConditionFailedError} when a condition does not
 * hold, and never partially apply one write.
 */
export interface DocumentStore {
  get<T extends StoredItem = StoredItem>(
    key: ItemKey,
    options?: { consistent?: boolean },
  ): Promise<T | undefined>;
  put(item: StoredItem, options?: { condition?: Condition }): Promise<void>;
  delete(key: ItemKey, options?: { condition?: Condition }): Promise<void>;
  query<T extends StoredItem = StoredItem>(options: QueryOptions): Promise<QueryPage<T>>;
  /** Writes many items (any number; chunked and retried as the store needs). Not atomic as a whole. */
  batchPut(items: readonly StoredItem[]): Promise<void>;
  /** Deletes many items by key (any number; chunked and retried), unconditionally. Not atomic as a whole. */
  batchDelete(keys: readonly ItemKey[]): Promise<void>;
  /** Reads many items by key (any number); missing keys are simply absent from the result. */
  batchGet<T extends StoredItem = StoredItem>(keys: readonly ItemKey[]): Promise<T[]>;
}

/** A conditional write whose condition did not hold. Callers decide by class, never by message. */
export class ConditionFailedError extends Error {
  override readonly name = 'ConditionFailedError';

  constructor(
    readonly key: ItemKey,
    options?: { cause?: unknown },
  ) {
    super(`Condition failed for ${key.pk} / ${key.sk}`, options);
  }
}

/**
 * The store failed or cannot be reached (a network fault, throttling that outlasted the retries,
 * the embedded store's process gone with nobody taking over in time). A domain error, so that the
 * caller is told to retry rather than handed an internal error; `reason` names the failure
 * without internals.
 *
 * @example
 * throw storageFailure('ThrottlingException', error);
 */
export function storageFailure(reason: string, cause?: unknown): DomainError {
  return new DomainError(
    'STORAGE_ERROR',
    `Meridian's data store failed (${reason}). Retry in a few seconds; if it keeps failing, tell the operator of this Meridian server (the embedded runtime's data folder, or the deployment's DynamoDB table, needs attention).`,
    {},
    { cause },
  );
}
