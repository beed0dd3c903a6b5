import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mapWithConcurrency } from '../../core/concurrency.js';
import { isDomainError } from '../../core/errors.js';
import {
  type Condition,
  ConditionFailedError,
  type DocumentStore,
  type ItemKey,
  type QueryOptions,
  type QueryPage,
  type StoredItem,
  storageFailure,
} from '../../core/ports/index.js';
import { type RetryOptions, retryUntilDone } from './batch-retry.js';
import type { DynamoDbHttpClient } from './dynamodb-http-client.js';
import { conditionExpression, ExpressionAttributes } from './expression-attributes.js';
import { decodeCursor, encodeCursor } from './query-cursor.js';
import { GSI1_KEYS, TABLE_DESIGN, TABLE_KEYS } from './table-design.js';

/** DynamoDB's per-request limits for BatchWriteItem and BatchGetItem. */
const BATCH_WRITE_LIMIT = 25;
const BATCH_GET_LIMIT = 100;
/**
 * Batch requests in flight at once. The keys of one call are distinct, so the order the batches
 * land in changes nothing; unprocessed items are retried per batch, with backoff. Putting 5,000
 * items (a restore's staging) took, with 4 and with 16 in flight: 850–930 and 470–520 ms on
 * dynalite behind a 10 ms round trip (a network, as DynamoDB is from Lambda), 365–405 and
 * 365–435 ms on dynalite in process (its own CPU is the limit), 1,030–1,190 and 940–1,010 ms on
 * DynamoDB Local. One after another, it took seconds.
 */
const BATCHES_AT_ONCE = 16;

export interface DynamoDbDocumentStoreOptions {
  /** The client of AWS, dynalite or DynamoDB Local; the store turns items into its wire shape and back. */
  client: DynamoDbHttpClient;
  tableName: string;
  /** Retries of unprocessed batch items. @default { maxAttempts: 8, baseDelayMs: 50, maxDelayMs: 2000 } */
  retry?: Partial<RetryOptions>;
}

/**
 * The {@link DocumentStore} port on DynamoDB — the only implementation, used against AWS, dynalite
 * and DynamoDB Local alike. Every write is a single-item (conditional) write or a batch write;
 * there are no transactions anywhere, because dynalite has none.
 * Items come back as stored; callers validate their shape (zod) at their own edge.
 *
 * @example
 * const store = new DynamoDbDocumentStore({ client: dynamoDbClientFor(environment.awsConnection), tableName: 'meridian' });
 * await store.put({ pk: 'KEY#abc', sk: 'META', owner: 'ops' }, { condition: { op: 'not_exists' } });
 */
export class DynamoDbDocumentStore implements DocumentStore {
  readonly #client: DynamoDbHttpClient;
  readonly #table: string;
  readonly #retry: RetryOptions;

  constructor(options: DynamoDbDocumentStoreOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#retry = { maxAttempts: 8, baseDelayMs: 50, maxDelayMs: 2000, ...options.retry };
  }

  async get<T extends StoredItem = StoredItem>(
    key: ItemKey,
    options?: { consistent?: boolean },
  ): Promise<T | undefined> {
    const output = await storageCall(() =>
      this.#client.send<{ Item?: WireItem }>('GetItem', {
        TableName: this.#table,
        Key: wire(keyOf(key)),
        ConsistentRead: options?.consistent,
      }),
    );
    return output.Item && (unmarshall(output.Item) as T);
  }

  async put(item: StoredItem, options?: { condition?: Condition }): Promise<void> {
    await this.#conditionally(keyOf(item), () =>
      storageCall(() =>
        this.#client.send('PutItem', {
          TableName: this.#table,
          Item: wire(item),
          ...conditionInput(options?.condition),
        }),
      ),
    );
  }

  async delete(key: ItemKey, options?: { condition?: Condition }): Promise<void> {
    await this.#conditionally(keyOf(key), () =>
      storageCall(() =>
        this.#client.send('DeleteItem', {
          TableName: this.#table,
          Key: wire(keyOf(key)),
          ...conditionInput(options?.condition),
        }),
      ),
    );
  }

  async query<T extends StoredItem = StoredItem>(options: QueryOptions): Promise<QueryPage<T>> {
    const index = options.index ?? 'table';
    const keys = index === 'table' ? TABLE_KEYS : GSI1_KEYS;
    if (options.beginsWith && options.between) {
      throw new Error('A query takes beginsWith or between on the sort key, not both.');
    }

    const attributes = new ExpressionAttributes();
    let keyCondition = `${attributes.name(keys.partition)} = ${attributes.value(options.partition)}`;
    if (options.beginsWith) {
      keyCondition += ` AND begins_with(${attributes.name(keys.sort)}, ${attributes.value(options.beginsWith)})`;
    } else if (options.between) {
      const { from, to } = options.between;
      keyCondition += ` AND ${attributes.name(keys.sort)} BETWEEN ${attributes.value(from)} AND ${attributes.value(to)}`;
    }

    const output = await storageCall(() =>
      this.#client.send<{ Items?: WireItem[]; LastEvaluatedKey?: WireItem }>('Query', {
        TableName: this.#table,
        ...(index === 'gsi1' && { IndexName: TABLE_DESIGN.gsi1.indexName }),
        KeyConditionExpression: keyCondition,
        ...wireAttributes(attributes),
        Limit: options.limit,
        ScanIndexForward: !options.descending,
        // A global secondary index rejects strongly consistent reads, so the option only reaches the table.
        ConsistentRead: index === 'table' ? options.consistent : undefined,
        ExclusiveStartKey: options.cursor
          ? wire(decodeCursor(options.cursor, index, options.partition))
          : undefined,
      }),
    );
    const items = (output.Items ?? []).map((item) => unmarshall(item) as T);
    return output.LastEvaluatedKey
      ? { items, cursor: encodeCursor(unmarshall(output.LastEvaluatedKey)) }
      : { items };
  }

  async batchPut(items: readonly StoredItem[]): Promise<void> {
    // One request may not hold two writes to the same key: the last write of a key wins, as it would
    // with sequential puts.
    const unique = [...new Map(items.map((item) => [keyId(item), item])).values()];
    await this.#writeInBatches(
      unique.map((item) => ({ PutRequest: { Item: wire(item) } })),
      'batchPut',
    );
  }

  async batchDelete(keys: readonly ItemKey[]): Promise<void> {
    // One request may not hold two writes to the same key.
    const unique = [...new Map(keys.map((key) => [keyId(key), keyOf(key)])).values()];
    await this.#writeInBatches(
      unique.map((key) => ({ DeleteRequest: { Key: wire(key) } })),
      'batchDelete',
    );
  }

  /** BatchWriteItem requests of distinct keys, 25 to a request, unprocessed ones retried. */
  async #writeInBatches(
    writes: readonly ({ PutRequest: { Item: WireItem } } | { DeleteRequest: { Key: WireItem } })[],
    operation: string,
  ): Promise<void> {
    await mapWithConcurrency(chunksOf(writes, BATCH_WRITE_LIMIT), BATCHES_AT_ONCE, (chunk) =>
      retryUntilDone(
        chunk,
        async (requests) => {
          const output = await storageCall(() =>
            this.#client.send<{ UnprocessedItems?: Record<string, typeof requests> }>('BatchWriteItem', {
              RequestItems: { [this.#table]: requests },
            }),
          );
          return output.UnprocessedItems?.[this.#table] ?? [];
        },
        { ...this.#retry, operation },
      ),
    );
  }

  async batchGet<T extends StoredItem = StoredItem>(keys: readonly ItemKey[]): Promise<T[]> {
    // BatchGetItem rejects duplicate keys in one request.
    const unique = [...new Map(keys.map((key) => [keyId(key), wire(keyOf(key))])).values()];
    const found: T[] = [];
    await mapWithConcurrency(chunksOf(unique, BATCH_GET_LIMIT), BATCHES_AT_ONCE, (chunk) =>
      retryUntilDone(
        chunk,
        async (pending) => {
          const output = await storageCall(() =>
            this.#client.send<{
              Responses?: Record<string, WireItem[]>;
              UnprocessedKeys?: Record<string, { Keys?: WireItem[] }>;
            }>('BatchGetItem', { RequestItems: { [this.#table]: { Keys: pending } } }),
          );
          for (const item of output.Responses?.[this.#table] ?? []) found.push(unmarshall(item) as T);
          return output.UnprocessedKeys?.[this.#table]?.Keys ?? [];
        },
        { ...this.#retry, operation: 'batchGet' },
      ),
    );
    return found;
  }

  async #conditionally(key: ItemKey, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isFailedCondition(error)) throw new ConditionFailedError(key, { cause: error });
      throw error;
    }
  }
}

/**
 * Runs one request; a failure other than a failed condition becomes STORAGE_ERROR, so that the
 * caller is told to retry instead of getting an internal error.
 */
async function storageCall<Output>(send: () => Promise<Output>): Promise<Output> {
  try {
    return await send();
  } catch (error) {
    if (isFailedCondition(error) || isDomainError(error)) throw error;
    throw storageFailure(error instanceof Error ? error.name : 'unknown error', error);
  }
}

function isFailedCondition(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** An item, key or cursor in DynamoDB's wire shape (attribute values typed, `{ S: 'text' }`). */
type WireItem = Record<string, AttributeValue>;

/**
 * An item in the wire shape, with the options the SDK's document client had here:
 * removeUndefinedValues, so optional fields left undefined are simply not stored, as in JSON.
 */
function wire(item: object): WireItem {
  return marshall(item, { removeUndefinedValues: true });
}

function wireAttributes(attributes: ExpressionAttributes) {
  const { ExpressionAttributeValues: values, ...names } = attributes.toInput();
  return values ? { ...names, ExpressionAttributeValues: wire(values) } : names;
}

function conditionInput(condition: Condition | undefined) {
  if (!condition) return {};
  const attributes = new ExpressionAttributes();
  return { ConditionExpression: conditionExpression(condition, attributes), ...wireAttributes(attributes) };
}

/** Only the key attributes: DynamoDB rejects a Key with any other attribute. */
function keyOf(key: ItemKey): ItemKey {
  return { pk: key.pk, sk: key.sk };
}

function keyId(key: ItemKey): string {
  return JSON.stringify([key.pk, key.sk]);
}

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
