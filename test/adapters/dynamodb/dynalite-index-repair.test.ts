import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repairDynaliteIndexes } from '../../../lambdas/adapters/dynamodb/dynalite-index-repair.js';
import { dynaliteLevel } from '../../../lambdas/adapters/dynamodb/dynalite-level.js';
import { startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import {
  createSocketDynamoDbClient,
  ensureTable,
} from '../../../lambdas/adapters/dynamodb/local-dynamodb.js';
import type { DocumentStore } from '../../../lambdas/core/ports/index.js';
import { queryAll } from '../../../lambdas/core/storage/query-all.js';

const TABLE = 'meridian';

/** dynalite on `path`, served on a Unix socket, for the time of `use`. */
async function withStore<T>(path: string, use: (store: DocumentStore) => Promise<T>): Promise<T> {
  const server = await startDynalite({ path, socketPath: join(path, '..', 'db.sock') });
  const client = createSocketDynamoDbClient(server.endpoint);
  try {
    await ensureTable(client, TABLE);
    return await use(new DynamoDbDocumentStore({ client, tableName: TABLE }));
  } finally {
    client.destroy();
    await server.close();
  }
}

/** Edits dynalite's LevelDB directly, as a process killed between two of its writes would leave it. */
async function tamper(path: string, edit: (key: string, value: { sk?: { S?: string } }) => unknown) {
  const level = dynaliteLevel(path);
  await level.open();
  try {
    const operations = [];
    for await (const [key, value] of level.iterator({ gte: '', lt: '\u007f' })) {
      const operation = edit(key, value as { sk?: { S?: string } });
      if (operation) operations.push(operation as { type: 'del'; key: string });
    }
    await level.batch(operations);
  } finally {
    await level.close();
  }
}

const item = (id: string, start: string) => ({
  pk: 'P',
  sk: id,
  gsi1pk: 'IDX',
  gsi1sk: `${start}#${id}`,
  start,
});

describe('repairDynaliteIndexes', () => {
  let folder: string;
  let path: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'meridian-repair-'));
    path = join(folder, 'dynamodb');
    await withStore(path, async (store) => {
      for (const [id, start] of [
        ['a', '09'],
        ['b', '10'],
        ['c', '11'],
      ] as const)
        await store.put(item(id, start));
    });
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const indexed = () =>
    withStore(path, async (store) =>
      (await queryAll(store, { index: 'gsi1', partition: 'IDX' })).map((i) => i.sk),
    );

  it('drops an index entry whose item is gone, restores a missing one, and fixes a stale one', async () => {
    await tamper(path, (key, value) => {
      // a: the item was never written (put crashed after its index entry).
      if (key.startsWith('item-') && value.sk?.S === 'a') return { type: 'del', key };
      // b: the index entry was deleted, the item not yet (delete crashed in between).
      if (key.startsWith('index-') && value.sk?.S === 'b') return { type: 'del', key };
      // c: an update moved the entry; the item was not rewritten.
      if (key.startsWith('index-') && value.sk?.S === 'c')
        return { type: 'put', key, value: { ...value, start: { S: 'stale' } } };
      return undefined;
    });

    const changed = await repairDynaliteIndexes(path);

    expect(changed).toBe(3);
    expect(await indexed()).toEqual(['b', 'c']);
    expect(
      await withStore(
        path,
        async (store) => (await queryAll(store, { index: 'gsi1', partition: 'IDX' }))[1]?.start,
      ),
    ).toBe('11');
  });

  it('changes nothing in a consistent store', async () => {
    expect(await repairDynaliteIndexes(path)).toBe(0);
    expect(await indexed()).toEqual(['a', 'b', 'c']);
  });
});
