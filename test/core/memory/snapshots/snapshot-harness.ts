import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynalite } from '../../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import {
  createLocalDynamoDbClient,
  ensureTable,
} from '../../../../lambdas/adapters/dynamodb/local-dynamodb.js';
import {
  EncryptionSdkEnvelope,
  rawAesKeyring,
} from '../../../../lambdas/adapters/encryption/encryption-sdk-envelope.js';
import { FileBlobStore } from '../../../../lambdas/adapters/files/file-blob-store.js';
import type { MemoryRecord } from '../../../../lambdas/core/memory/memory-records.js';
import type { SnapshotDeps } from '../../../../lambdas/core/memory/snapshots/snapshot-deps.js';
import type { Clock } from '../../../../lambdas/core/ports/index.js';
import { nodeRandom } from '../../../../lambdas/runtime/node-random.js';
import { TableMemoryState } from '../../../support/table-memory-state.js';

export interface SnapshotWorld {
  deps: SnapshotDeps;
  memory: TableMemoryState;
  blobs: FileBlobStore;
  blobRoot: string;
  close(): Promise<void>;
}

/** A clock that starts on a fixed instant and moves 1 s per reading: ordered, repeatable ids. */
export function steppingClock(start = '2026-11-23T20:00:00Z'): Clock {
  let at = Date.parse(start);
  return {
    now: () => {
      at += 1000;
      return new Date(at);
    },
  };
}

/**
 * The real components a snapshot touches: dynalite (table), the file blob store in a temporary
 * folder, the AWS Encryption SDK with a raw AES key, and a table-backed memory state.
 */
export async function startSnapshotWorld(): Promise<SnapshotWorld> {
  const dynalite = await startDynalite();
  const client = createLocalDynamoDbClient(dynalite.endpoint);
  const tableName = `snapshots-${randomBytes(4).toString('hex')}`;
  await ensureTable(client, tableName);
  const store = new DynamoDbDocumentStore({ client, tableName });
  const blobRoot = await mkdtemp(join(tmpdir(), 'meridian-snapshot-world-'));
  const blobs = new FileBlobStore(blobRoot);
  const memory = new TableMemoryState(store);
  return {
    deps: {
      state: memory,
      blobs,
      encryption: new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32)))),
      store,
      clock: steppingClock(),
      random: nodeRandom,
    },
    memory,
    blobs,
    blobRoot,
    close: async () => {
      client.destroy();
      await dynalite.close();
      await rm(blobRoot, { recursive: true, force: true });
    },
  };
}

/** A small memory: a branch, a context, entries, and one entry whose body lives in a blob. */
export async function seedMemory(
  world: SnapshotWorld,
  projectId: string,
  tag: string,
): Promise<MemoryRecord[]> {
  const bodyKey = `projects/${projectId}/bodies/${tag}`;
  await world.blobs.put(bodyKey, new TextEncoder().encode(`long body ${tag} `.repeat(200)));
  const records: MemoryRecord[] = [
    { key: 'branch/main', body: { kind: 'branch', name: 'main' } },
    { key: 'context/main', body: { kind: 'context', branch_id: 'main', summary: `summary ${tag}` } },
    { key: `entry/${tag}-1`, body: { kind: 'entry', text: `Decision ${tag}: Postgres 16` } },
    {
      key: `entry/${tag}-2`,
      body: { kind: 'entry', text: `Bug ${tag} fixed in src/app.ts`, blob_key: bodyKey },
    },
  ];
  for (const record of records) await world.memory.write(projectId, record);
  return records;
}

/** Flips one bit of a blob as stored on disk by the file adapter (`<key>~`), as tampering would. */
export async function flipStoredBit(
  world: SnapshotWorld,
  key: string,
  at: (length: number) => number,
): Promise<void> {
  const path = join(world.blobRoot, `${key}~`);
  const stored = Buffer.from(await readFile(path));
  const position = at(stored.length);
  stored[position] = (stored[position] ?? 0) ^ 0x01;
  await rm(path);
  await writeFile(path, stored);
}
