import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../../../lambdas/adapters/dynamodb/local-dynamodb.js';

const TABLE = 'meridian';

async function withStore<T>(endpoint: string, use: (store: DynamoDbDocumentStore) => Promise<T>): Promise<T> {
  const client = createLocalDynamoDbClient(endpoint);
  try {
    await ensureTable(client, TABLE);
    return await use(new DynamoDbDocumentStore({ client, tableName: TABLE }));
  } finally {
    client.destroy();
  }
}

describe('startDynalite', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-dynalite-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 with an ephemeral port', async () => {
    const [first, second] = await Promise.all([startDynalite(), startDynalite()]);
    try {
      expect(first.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(second.endpoint).not.toBe(first.endpoint);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('keeps data on disk across a close and a restart on the same path', async () => {
    const path = join(dataDir, 'dynamodb');
    const item = { pk: `KEY#${randomUUID()}`, sk: 'META', label: 'survives restarts' };

    const first = await startDynalite({ path });
    // The client is still connected (keep-alive) when close() is called, as in a real shutdown.
    const client = createLocalDynamoDbClient(first.endpoint);
    await ensureTable(client, TABLE);
    await new DynamoDbDocumentStore({ client, tableName: TABLE }).put(item);
    const closing = performance.now();
    await first.close();
    const closeMs = performance.now() - closing;
    client.destroy();

    const second = await startDynalite({ path });
    try {
      expect(await withStore(second.endpoint, (store) => store.get(item))).toStrictEqual(item);
      expect(closeMs).toBeLessThan(1_000);
    } finally {
      await second.close();
    }
  });

  it('refuses a path another running instance holds, naming the path', async () => {
    const path = join(dataDir, 'dynamodb');
    const first = await startDynalite({ path });
    try {
      await expect(startDynalite({ path })).rejects.toThrow(
        `The data folder ${path} is in use by another process`,
      );
    } finally {
      await first.close();
    }
  });

  it('keeps an in-memory instance empty of another instance’s data', async () => {
    const key = { pk: `KEY#${randomUUID()}`, sk: 'META' };
    const first = await startDynalite();
    const second = await startDynalite();
    try {
      await withStore(first.endpoint, (store) => store.put(key));

      expect(await withStore(second.endpoint, (store) => store.get(key))).toBeUndefined();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
