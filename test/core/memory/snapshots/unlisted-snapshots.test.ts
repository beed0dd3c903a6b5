import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeGzip } from '../../../../lambdas/adapters/compression/node-gzip.js';
import { FileBlobStore } from '../../../../lambdas/adapters/files/file-blob-store.js';
import { sweepIdleContexts } from '../../../../lambdas/core/memory/contexts/idle-compression-sweep.js';
import { createSnapshot } from '../../../../lambdas/core/memory/snapshots/create-snapshot.js';
import type { SnapshotDeps } from '../../../../lambdas/core/memory/snapshots/snapshot-deps.js';
import { UNLISTED_GRACE_MS } from '../../../../lambdas/core/memory/snapshots/unlisted-snapshots.js';
import type { Clock } from '../../../../lambdas/core/ports/index.js';
import { connectInMemory, okTool } from '../../../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../../../support/test-runtime.js';

describe('snapshots a crash left written but never listed', () => {
  let runtime: TestRuntime;
  let client: Client;
  let now = Date.parse('2026-11-23T09:00:00Z');
  const clock: Clock = { now: () => new Date(now) };
  let projectId: string;
  let blobDir: string;

  beforeAll(async () => {
    blobDir = await mkdtemp(join(tmpdir(), 'meridian-unlisted-'));
    runtime = await startTestRuntime({ clock, memoryBlobs: new FileBlobStore(blobDir) });
    client = await connectInMemory(runtime);
    projectId = (await okTool(client, 'create_project', { name: 'Orphans' })).project.project_id;
    const { branch_id } = await okTool(client, 'create_branch', {
      project_id: projectId,
      branch_topic: 'Main',
    });
    await okTool(client, 'update_memory', {
      project_id: projectId,
      branch_id,
      role: 'user',
      content: 'Keep the receipts.',
    });
  });

  afterAll(async () => {
    await client?.close();
    await runtime?.close();
    await rm(blobDir, { recursive: true, force: true });
  });

  /**
   * The snapshot deps create_snapshot uses, with the process dying at the catalog entry (the one
   * conditional put of a snapshot): its objects are written, nothing lists them.
   */
  function crashingAtCatalog(): SnapshotDeps {
    const store = runtime.store;
    const dying: typeof store = {
      get: (key, options) => store.get(key, options),
      query: (options) => store.query(options),
      batchGet: (keys) => store.batchGet(keys),
      put: async (item, options) => {
        if (options?.condition) throw new Error('killed before the catalog entry');
        return store.put(item, options);
      },
      delete: (key, options) => store.delete(key, options),
      batchPut: (items) => store.batchPut(items),
      batchDelete: (keys) => store.batchDelete(keys),
    };
    return {
      state: runtime.memory.memory,
      blobs: runtime.memoryBlobs,
      encryption: runtime.encryption,
      compressor: nodeGzip,
      store: dying,
      clock,
      random: runtime.random,
    };
  }

  /** The snapshot folders on disk (the file blob store), by snapshot id. */
  async function foldersOnDisk(): Promise<string[]> {
    return (await readdir(join(blobDir, 'projects', projectId, 'snapshots'))).sort();
  }

  const listed = async () =>
    (
      (await okTool(client, 'list_snapshots', { project_id: projectId, format: 'json' })).snapshots as {
        snapshot_id: string;
      }[]
    ).map((snapshot) => snapshot.snapshot_id);

  const sweep = () =>
    sweepIdleContexts({
      store: runtime.store,
      memory: runtime.memory.memory,
      blobs: runtime.memoryBlobs,
      clock,
    });

  it('are removed by the sweep after the grace period, never a listed or an in-flight one', async () => {
    const kept = (await okTool(client, 'create_snapshot', { project_id: projectId, description: 'kept' }))
      .snapshot_id as string;
    await expect(createSnapshot(crashingAtCatalog(), projectId)).rejects.toThrow(/killed/);
    const orphan = (await foldersOnDisk()).find((id) => id !== kept)!;
    now += UNLISTED_GRACE_MS / 2;
    // Still being made, as far as anyone can tell: its objects are written, its entry not yet.
    await expect(createSnapshot(crashingAtCatalog(), projectId)).rejects.toThrow(/killed/);
    const inFlight = (await foldersOnDisk()).find((id) => id !== kept && id !== orphan)!;
    expect(await listed()).toEqual([kept]);
    expect(await foldersOnDisk()).toEqual([kept, orphan, inFlight].sort());

    now += UNLISTED_GRACE_MS / 2 + 1000;
    const first = await sweep();

    expect(first).toMatchObject({ snapshots_collected: 1, failures: [] });
    expect(await foldersOnDisk()).toEqual([kept, inFlight].sort());
    expect(await listed()).toEqual([kept]);
    await okTool(client, 'restore_snapshot', { project_id: projectId, snapshot_id: kept });

    now += UNLISTED_GRACE_MS;
    const second = await sweep();
    const third = await sweep();

    expect(second).toMatchObject({ snapshots_collected: 1, failures: [] });
    expect(third).toMatchObject({ snapshots_collected: 0 });
    expect(await foldersOnDisk()).toContain(kept);
    expect(await foldersOnDisk()).not.toContain(inFlight);
    expect(await listed()).toContain(kept);
  });
});
