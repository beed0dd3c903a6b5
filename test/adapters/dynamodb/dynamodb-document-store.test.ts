import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DynaliteServer, startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import {
  type DynamoDbHttpClient,
  type DynamoDbOperation,
  DynamoDbServiceError,
} from '../../../lambdas/adapters/dynamodb/dynamodb-http-client.js';
import { createLocalDynamoDbClient, ensureTable } from '../../../lambdas/adapters/dynamodb/local-dynamodb.js';
import { ConditionFailedError, type StoredItem } from '../../../lambdas/core/ports/index.js';

type Request = Record<string, unknown>;
type BatchWriteInput = { RequestItems: Record<string, Request[]> };
type BatchGetInput = { RequestItems: Record<string, { Keys: Request[] }> };

/**
 * Makes the real engine look throttled: for the next `times` batch requests, only the first half
 * of the batch reaches dynalite and the rest comes back as unprocessed, exactly where DynamoDB
 * reports it. Also records the size of every batch request sent.
 */
class Throttle {
  times = 0;
  readonly writeSizes: number[] = [];
  readonly getSizes: number[] = [];
  /** The most batch requests that were in flight at once. */
  maxInFlight = 0;
  #inFlight = 0;

  constructor(client: DynamoDbHttpClient, table: string) {
    const send = client.send.bind(client);
    // Stands in front of the client's send: the input and output in DynamoDB's wire shape.
    client.send = (async (operation: DynamoDbOperation, raw: object) => {
      this.#inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
      try {
        const input = raw as BatchWriteInput & BatchGetInput;
        if (operation === 'BatchWriteItem') {
          const requests = input.RequestItems[table]!;
          this.writeSizes.push(requests.length);
          if (this.times <= 0) return await send(operation, raw);
          this.times--;
          const [sent, unprocessed] = halves(requests);
          const output = await send(operation, { RequestItems: { [table]: sent } });
          return { ...output, UnprocessedItems: { [table]: unprocessed } };
        }
        if (operation === 'BatchGetItem') {
          const keys = input.RequestItems[table]!.Keys;
          this.getSizes.push(keys.length);
          if (this.times <= 0) return await send(operation, raw);
          this.times--;
          const [sent, unprocessed] = halves(keys);
          const output = await send(operation, { RequestItems: { [table]: { Keys: sent } } });
          return { ...output, UnprocessedKeys: { [table]: { Keys: unprocessed } } };
        }
        return await send(operation, raw);
      } finally {
        this.#inFlight -= 1;
      }
    }) as DynamoDbHttpClient['send'];
  }
}

function halves<T>(list: T[]): [T[], T[]] {
  const middle = Math.ceil(list.length / 2);
  return [list.slice(0, middle), list.slice(middle)];
}

function itemsOf(partition: string, count: number): StoredItem[] {
  return Array.from({ length: count }, (_, n) => ({
    pk: partition,
    sk: `ITEM#${String(n).padStart(4, '0')}`,
    n,
  }));
}

describe('DynamoDbDocumentStore', () => {
  let dynalite: DynaliteServer;
  let client: DynamoDbHttpClient;
  let throttle: Throttle;
  let store: DynamoDbDocumentStore;

  beforeAll(async () => {
    dynalite = await startDynalite();
    client = createLocalDynamoDbClient(dynalite.endpoint);
    const tableName = `store-${randomUUID()}`;
    await ensureTable(client, tableName);
    throttle = new Throttle(client, tableName);
    store = new DynamoDbDocumentStore({
      client,
      tableName,
      retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 },
    });
  });
  beforeEach(() => {
    throttle.times = 0;
    throttle.writeSizes.length = 0;
    throttle.getSizes.length = 0;
  });
  afterAll(async () => {
    client?.destroy();
    await dynalite?.close();
  });

  describe('batchPut', () => {
    it('sends writes in chunks of at most 25', async () => {
      await store.batchPut(itemsOf(`P#${randomUUID()}`, 60));

      expect(throttle.writeSizes.sort((a, b) => a - b)).toEqual([10, 25, 25]);
    });

    it('keeps up to 16 batches in flight at once, and writes every item', async () => {
      const items = itemsOf(`P#${randomUUID()}`, 500);
      throttle.maxInFlight = 0;

      await store.batchPut(items);

      expect(throttle.writeSizes).toHaveLength(20);
      expect(throttle.maxInFlight).toBe(16);
      expect(await store.batchGet(items)).toHaveLength(500);
    });

    it('retries unprocessed items until every item is written', async () => {
      const items = itemsOf(`P#${randomUUID()}`, 30);
      throttle.times = 3;

      await store.batchPut(items);

      // Both chunks (25 and 5) go out at once; each of the 3 throttled answers leaves half a
      // request unprocessed, which is sent again: 2 + 3 requests in all.
      expect(throttle.writeSizes.slice(0, 2).sort((a, b) => a - b)).toEqual([5, 25]);
      expect(throttle.writeSizes).toHaveLength(5);
      expect(await store.batchGet(items)).toHaveLength(30);
    });

    it('gives up with an error once maxAttempts requests left items unprocessed', async () => {
      throttle.times = 100;

      await expect(store.batchPut(itemsOf(`P#${randomUUID()}`, 25))).rejects.toThrow(
        'batchPut: 1 item(s) still unprocessed after 4 attempts',
      );
      expect(throttle.writeSizes).toEqual([25, 12, 6, 3]);
    });
  });

  describe('batchGet', () => {
    it('sends reads in chunks of at most 100 and retries unprocessed keys', async () => {
      const items = itemsOf(`P#${randomUUID()}`, 130);
      await store.batchPut(items);
      throttle.getSizes.length = 0;
      throttle.times = 2;

      const found = await store.batchGet(items);

      // Both chunks (100 and 30) go out at once; the 2 throttled answers each cost one more request.
      expect(throttle.getSizes.slice(0, 2).sort((a, b) => a - b)).toEqual([30, 100]);
      expect(throttle.getSizes).toHaveLength(4);
      expect(found.map((item) => item.n).sort((a, b) => Number(a) - Number(b))).toEqual(
        items.map((item) => item.n),
      );
    });

    it('gives up with an error once maxAttempts requests left keys unprocessed', async () => {
      throttle.times = 100;

      await expect(store.batchGet(itemsOf(`P#${randomUUID()}`, 16))).rejects.toThrow(
        'batchGet: 1 item(s) still unprocessed after 4 attempts',
      );
      expect(throttle.getSizes).toEqual([16, 8, 4, 2]);
    });
  });

  describe('put', () => {
    it("keeps DynamoDB's ConditionalCheckFailedException as the cause of ConditionFailedError", async () => {
      const key = { pk: `P#${randomUUID()}`, sk: 'META' };
      await store.put(key);

      const error = await store
        .put(key, { condition: { op: 'not_exists' } })
        .catch((thrown: unknown) => thrown);

      expect(error).toBeInstanceOf(ConditionFailedError);
      const cause = (error as ConditionFailedError).cause;
      expect(cause).toBeInstanceOf(DynamoDbServiceError);
      expect(cause).toMatchObject({ name: 'ConditionalCheckFailedException', statusCode: 400 });
    });
  });

  describe('query', () => {
    it('rejects beginsWith and between together', async () => {
      await expect(
        store.query({ partition: 'P', beginsWith: 'A', between: { from: 'A', to: 'B' } }),
      ).rejects.toThrow('not both');
    });
  });
});

describe('lambdas/ (architecture rule)', () => {
  it('uses no DynamoDB transactions anywhere: dynalite has none', async () => {
    const root = join(import.meta.dirname, '../../../lambdas');
    const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.ts'));
    const offenders = [];
    for (const file of files) {
      if (/Transact(Write|Get)/.test(await readFile(join(root, file), 'utf8'))) offenders.push(file);
    }

    expect(files.length).toBeGreaterThan(5);
    expect(offenders).toEqual([]);
  });
});
