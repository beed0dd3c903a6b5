import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeGzip } from '../../../../lambdas/adapters/compression/node-gzip.js';
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
import type { SnapshotDeps } from '../../../../lambdas/core/memory/snapshots/snapshot-deps.js';
import {
  branchRecord,
  contextRecord,
  entryRecord,
} from '../../../../lambdas/core/memory/store/memory-keys.js';
import type { MemoryRecord } from '../../../../lambdas/core/memory/store/memory-records.js';
import { MemoryStore } from '../../../../lambdas/core/memory/store/memory-store.js';
import type { Clock } from '../../../../lambdas/core/ports/index.js';
import { nodeRandom } from '../../../../lambdas/runtime/node-random.js';

/** memcore's store, plus a raw record write standing in for update_memory and friends. */
export class SeedableMemory extends MemoryStore {
  async write(projectId: string, record: MemoryRecord): Promise<void> {
    const { generation } = await this.generations.pointer(projectId);
    await this.generations.putRecord(
      projectId,
      generation,
      record.key,
      record.body as Record<string, unknown>,
    );
    await this.generations.touch(projectId, generation);
  }
}

export interface SnapshotWorld {
  deps: SnapshotDeps;
  memory: SeedableMemory;
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
 * folder, the AWS Encryption SDK with a raw AES key, and the memory store (memcore's).
 */
export async function startSnapshotWorld(): Promise<SnapshotWorld> {
  const dynalite = await startDynalite();
  const client = createLocalDynamoDbClient(dynalite.endpoint);
  const tableName = `snapshots-${randomBytes(4).toString('hex')}`;
  await ensureTable(client, tableName);
  const store = new DynamoDbDocumentStore({ client, tableName });
  const blobRoot = await mkdtemp(join(tmpdir(), 'meridian-snapshot-world-'));
  const blobs = new FileBlobStore(blobRoot);
  const clock = steppingClock();
  const memory = new SeedableMemory({ store, blobs, clock, random: nodeRandom, compressor: nodeGzip });
  return {
    deps: {
      state: memory,
      blobs,
      encryption: new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32)))),
      compressor: nodeGzip,
      store,
      clock,
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

/** A small memory: a branch, its context, entries, one whose body is large enough for a blob. */
export async function seedMemory(
  world: SnapshotWorld,
  projectId: string,
  tag: string,
): Promise<MemoryRecord[]> {
  const records: MemoryRecord[] = [
    {
      key: branchRecord('main'),
      body: { branch_id: 'main', topic: `topic ${tag}`, created_at: '2026-11-23T20:00:00Z', version: 1 },
    },
    {
      key: contextRecord('main'),
      body: { branch_id: 'main', compressed: false, entry_ids: [], message_count: 2, version: 1 },
    },
    {
      key: entryRecord('main', `${tag}-1`),
      body: { entry_id: `${tag}-1`, content: `Decision ${tag}: Postgres 16` },
    },
    {
      key: entryRecord('main', `${tag}-2`),
      body: { entry_id: `${tag}-2`, content: `Bug ${tag} fixed in src/app.ts. `.repeat(400) },
    },
  ];
  for (const record of records) await world.memory.write(projectId, record);
  return records;
}

/** How many blobs the project's memory holds (large bodies offloaded by the store). */
export async function blobCount(world: SnapshotWorld, projectId: string): Promise<number> {
  return (await world.blobs.list({ prefix: `projects/${projectId}/memory/` })).blobs.length;
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
