import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nodeGzip } from '../../../lambdas/adapters/compression/node-gzip.js';
import { DROP_GRACE_MS } from '../../../lambdas/core/memory/contexts/generation-drops.js';
import {
  type IdleSweepDeps,
  sweepIdleContexts,
} from '../../../lambdas/core/memory/contexts/idle-compression-sweep.js';
import {
  generationOfDropMarker,
  generationPrefix,
  memoryPartition,
} from '../../../lambdas/core/memory/store/memory-keys.js';
import { IDLE_COMPRESSION_MS, MemoryStore } from '../../../lambdas/core/memory/store/memory-store.js';
import type { Clock, DocumentStore, StoredItem } from '../../../lambdas/core/ports/index.js';
import { projectResource } from '../../../lambdas/core/rules/project-access.js';
import { GSI1PK, MEMORY_RECORD, SK } from '../../../lambdas/core/storage/key-prefixes.js';
import { queryAll } from '../../../lambdas/core/storage/query-all.js';
import { routeHttpRequest } from '../../../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../../../lambdas/runtime/node-http-server.js';
import { nodeRandom } from '../../../lambdas/runtime/node-random.js';
import { type CallToolResult, connectHttpClient } from '../../support/mcp-client.js';
import { passThroughStore } from '../../support/pass-through-store.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

type Structured = Record<string, unknown>;

/**
 * The idle-compression sweep against one engine: dynalite (idle-compression-sweep.test.ts) and
 * DynamoDB Local (idle-compression-sweep-dynamodb-local.test.ts), whose gsi1 is the real engine's.
 */
export function describeIdleSweep(engine: string, endpoint?: () => string): void {
  describe(`idle compression sweep on ${engine} (no read needed)`, () => {
    let runtime: TestRuntime;
    let server: Awaited<ReturnType<typeof startHttpServer>>;
    let client: Client;
    let keyId: string;
    let now = Date.parse('2026-11-23T09:00:00Z');
    const clock: Clock = { now: () => new Date(now) };
    let projectId: string;
    let branchId: string;

    /** The sweep as the scheduled Lambda runs it: another process's MemoryStore on the same table. */
    const sweepDeps = (store: DocumentStore = runtime.store): IdleSweepDeps => ({
      store,
      blobs: runtime.memoryBlobs,
      clock,
      memory: new MemoryStore({
        store,
        blobs: runtime.memoryBlobs,
        clock,
        random: nodeRandom,
        compressor: nodeGzip,
      }),
    });

    async function ok(name: string, args: Structured): Promise<Structured> {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as Structured;
    }

    const write = (content: string, target = { project: projectId, branch: branchId }) =>
      ok('update_memory', {
        project_id: target.project,
        branch_id: target.branch,
        role: 'assistant',
        content,
      });

    /** A new project the client may write, with one branch. */
    async function newProject(name: string): Promise<{ project: string; branch: string }> {
      const project = (await runtime.rules.projects.create({ name })).project_id;
      await runtime.access.setGrant(keyId, projectResource(project), 'write');
      const branch = (await ok('create_branch', { project_id: project, branch_topic: `${name} work` }))
        .branch_id as string;
      return { project, branch };
    }

    /** How many rows of `generation` the project's partition holds. */
    const rowsOf = async (generation: string) =>
      (
        await queryAll(runtime.store, {
          partition: memoryPartition(projectId),
          beginsWith: generationPrefix(generation),
          consistent: true,
        })
      ).length;

    /** The generations of the project marked to be dropped. */
    const markers = async () =>
      (await runtime.store.query({ index: 'gsi1', partition: GSI1PK.generationsToDrop })).items
        .filter((item) => item.pk === memoryPartition(projectId))
        .map((item) => generationOfDropMarker(item.sk));

    beforeAll(async () => {
      runtime = await startTestRuntime({ clock, ...(endpoint ? { endpoint: endpoint() } : {}) });
      server = await startHttpServer({
        host: '127.0.0.1',
        port: 0,
        handle: (request) => routeHttpRequest(request, runtime),
        logger: runtime.logger,
      });
      const key = await runtime.newKey('sweeper');
      keyId = key.keyId;
      client = await connectHttpClient(`${server.url}/mcp`, undefined, {
        authorization: `Bearer ${key.token}`,
      });
    });

    afterAll(async () => {
      await client?.close();
      await server?.close();
      await runtime?.close();
    });

    beforeEach(async () => {
      // Whatever earlier tests left idle is swept now, so each test sees only its own projects.
      now += 2 * IDLE_COMPRESSION_MS;
      await sweepIdleContexts(sweepDeps());
      now += 2 * IDLE_COMPRESSION_MS;
      await sweepIdleContexts(sweepDeps());
      ({ project: projectId, branch: branchId } = await newProject('Shop'));
    });

    it('compresses a context idle for 30 minutes that nobody read, and load_context restores it', async () => {
      await write('Chose Stripe for card payments.');
      await write('Retries: two, 30 s apart.');

      now += IDLE_COMPRESSION_MS - 60_000;
      expect(await sweepIdleContexts(sweepDeps())).toMatchObject({ projects: 0, contexts_compressed: 0 });
      now += 120_000;
      const summary = await sweepIdleContexts(sweepDeps());

      expect(summary).toEqual({
        projects: 1,
        contexts_compressed: 1,
        projects_released: 0,
        generations_discarded: 0,
        snapshots_collected: 0,
        failures: [],
      });
      const loaded = await ok('load_context', { project_id: projectId, branch_id: branchId });
      expect(loaded.metadata).toMatchObject({ compressed: true, message_count: 2 });
      expect(loaded.message).toBe('Decompressed and restored.');
      expect(loaded.content).toContain('Chose Stripe for card payments.');
      expect(loaded.content).toContain('Retries: two, 30 s apart.');
    });

    it('takes a project out of the index once nothing is left to compress, and then reads nothing of it', async () => {
      await write('Settled on ISO week numbers.');
      now += IDLE_COMPRESSION_MS + 1000;
      await sweepIdleContexts(sweepDeps());
      const indexed = async () =>
        (await runtime.store.query({ index: 'gsi1', partition: GSI1PK.idleMemory })).items.filter((item) =>
          item.pk.endsWith(projectId),
        );
      expect(await indexed()).toHaveLength(1);

      now += IDLE_COMPRESSION_MS + 1000;
      expect(await sweepIdleContexts(sweepDeps())).toMatchObject({ projects: 1, projects_released: 1 });
      expect(await indexed()).toEqual([]);
      expect(await sweepIdleContexts(sweepDeps())).toMatchObject({ projects: 0, contexts_compressed: 0 });
      // Leaving the index changed nothing in the memory: search caches keyed by revision stay valid.
      const summary = await ok('get_active_summary', { project_id: projectId, branch_id: branchId });
      expect(summary).toMatchObject({ status: 'compressed', message_count: 1 });
    });

    it('keeps a write that lands while the sweep compresses its branch, and compresses it on a later run', async () => {
      await write('First idea.');
      await write('Second idea.');
      now += IDLE_COMPRESSION_MS + 1000;
      let raced = false;
      // The racing update_memory goes in just before the sweep writes the compressed context.
      const racing = beforePut(
        runtime.store,
        (item) => item.sk.includes(`#${MEMORY_RECORD.contextPrefix}`),
        async () => {
          raced = true;
          await write('Written during the sweep.');
        },
      );

      expect(await sweepIdleContexts(sweepDeps(racing))).toMatchObject({ contexts_compressed: 1 });
      expect(raced).toBe(true);
      const summary = await ok('get_active_summary', { project_id: projectId, branch_id: branchId });
      expect(summary).toMatchObject({ message_count: 3 });

      now += IDLE_COMPRESSION_MS + 1000;
      expect(await sweepIdleContexts(sweepDeps())).toMatchObject({ contexts_compressed: 1 });
      const loaded = await ok('load_context', { project_id: projectId, branch_id: branchId });
      expect(loaded.metadata).toMatchObject({ compressed: true, message_count: 3 });
      for (const text of ['First idea.', 'Second idea.', 'Written during the sweep.']) {
        expect(loaded.content).toContain(text);
      }
    });

    it('keeps a project in the index when a write lands as the sweep takes it out', async () => {
      await write('Before the break.');
      now += IDLE_COMPRESSION_MS + 1000;
      await sweepIdleContexts(sweepDeps());
      now += IDLE_COMPRESSION_MS + 1000;
      // The racing write goes in between the sweep's read of the pointer and its conditional put.
      const racing = beforePut(
        runtime.store,
        (item) => item.sk === SK.memory.pointer && item.gsi1pk === undefined,
        () => write('After the break.'),
      );

      expect(await sweepIdleContexts(sweepDeps(racing))).toMatchObject({ projects: 1, projects_released: 0 });
      now += IDLE_COMPRESSION_MS + 1000;
      expect(await sweepIdleContexts(sweepDeps())).toMatchObject({ contexts_compressed: 1 });
      const loaded = await ok('load_context', { project_id: projectId, branch_id: branchId });
      expect(loaded.metadata).toMatchObject({ compressed: true, message_count: 2 });
    });

    it('drops the generation a restore replaced an hour later, busy project or not, in one batch, and keeps the restored memory', async () => {
      for (let n = 1; n <= 30; n++) await write(`Note ${n}.`);
      const { snapshot_id } = await ok('create_snapshot', { project_id: projectId });
      await write('After the snapshot.');
      const replaced = (await sweepDeps().memory.generations.pointer(projectId)).generation;
      await ok('restore_snapshot', { project_id: projectId, snapshot_id });
      // The restore itself deleted nothing: the replaced rows wait for the sweep.
      const replacedRows = await rowsOf(replaced);
      expect(replacedRows).toBeGreaterThan(30);

      // Written to every 10 minutes, so never idle: the generation still goes after the grace.
      for (let minutes = 10; minutes < 60; minutes += 10) {
        now += 10 * 60_000;
        await write(`Busy at minute ${minutes}.`);
        expect(await sweepIdleContexts(sweepDeps())).toMatchObject({ generations_discarded: 0 });
      }
      expect(await rowsOf(replaced)).toBe(replacedRows);
      now += DROP_GRACE_MS - 50 * 60_000 + 1000;
      const counted = countingBatchDeletes(runtime.store);
      const summary = await sweepIdleContexts(sweepDeps(counted.store));

      expect(summary).toMatchObject({ projects: 0, generations_discarded: 1, failures: [] });
      expect(await rowsOf(replaced)).toBe(0);
      expect(counted.counts).toEqual({ batches: 1, rows: replacedRows });
      expect(await markers()).toEqual([]);
      const loaded = await ok('load_context', { project_id: projectId, branch_id: branchId });
      expect(loaded.content).toContain('Note 30.');
      expect(loaded.content).toContain('Busy at minute 50.');
      expect(loaded.content).not.toContain('After the snapshot.');
    });

    it('drops what a restore that died before its switch staged, after the grace, and never the current memory', async () => {
      await write('Before the crash.');
      const memory = sweepDeps().memory;
      const current = (await memory.generations.pointer(projectId)).generation;
      // What a restore whose process died before its switch leaves: a generation nobody reads,
      // and the current one marked too (the restore meant to replace it).
      const staged = await memory.stageGeneration(projectId, (await memory.exportState(projectId)).records);
      expect((await markers()).sort()).toEqual([current, staged].sort());

      now += DROP_GRACE_MS - 60_000;
      expect(await sweepIdleContexts(sweepDeps())).toMatchObject({ generations_discarded: 0 });
      expect(await rowsOf(staged)).toBeGreaterThan(0);
      now += 120_000;
      expect(await sweepIdleContexts(sweepDeps())).toMatchObject({ generations_discarded: 1, failures: [] });

      expect(await rowsOf(staged)).toBe(0);
      expect(await rowsOf(current)).toBeGreaterThan(0);
      expect(await markers()).toEqual([]);
      const loaded = await ok('load_context', { project_id: projectId, branch_id: branchId });
      expect(loaded.content).toContain('Before the crash.');
    });

    it('keeps the mark a restore sets while the sweep clears an old one, and drops that generation later', async () => {
      await write('First state.');
      const { snapshot_id } = await ok('create_snapshot', { project_id: projectId });
      await write('Second state.');
      const memory = sweepDeps().memory;
      const current = (await memory.generations.pointer(projectId)).generation;
      // An old mark on the current generation, from a restore that failed an hour ago.
      await memory.discardGeneration(
        projectId,
        await memory.stageGeneration(projectId, (await memory.exportState(projectId)).records),
      );
      now += DROP_GRACE_MS + 1000;
      // A restore starts (marking the current generation again) just as the sweep clears that mark.
      const racing = beforeDelete(
        runtime.store,
        (key) => key.sk.endsWith(current),
        () => ok('restore_snapshot', { project_id: projectId, snapshot_id }),
      );

      expect(await sweepIdleContexts(sweepDeps(racing))).toMatchObject({
        generations_discarded: 1,
        failures: [],
      });
      expect(await markers()).toContain(current);
      expect(await rowsOf(current)).toBeGreaterThan(0);
      now += DROP_GRACE_MS + 1000;
      expect(await sweepIdleContexts(sweepDeps())).toMatchObject({ generations_discarded: 1, failures: [] });

      expect(await rowsOf(current)).toBe(0);
      const loaded = await ok('load_context', { project_id: projectId, branch_id: branchId });
      expect(loaded.content).toContain('First state.');
      expect(loaded.content).not.toContain('Second state.');
    });

    it('visits at most maxProjects a run, and the next run carries on from its cursor', async () => {
      const other = await newProject('Billing');
      await write('Shop note.');
      await write('Billing note.', other);
      now += IDLE_COMPRESSION_MS + 1000;

      const first = await sweepIdleContexts(sweepDeps(), { pageSize: 1, maxProjects: 1 });
      expect(first).toMatchObject({ projects: 1, contexts_compressed: 1, cursor: expect.any(String) });
      const second = await sweepIdleContexts(sweepDeps(), {
        pageSize: 1,
        maxProjects: 1,
        cursor: first.cursor!,
      });
      expect(second).toMatchObject({ projects: 1, contexts_compressed: 1 });
      const third = await sweepIdleContexts(sweepDeps(), {
        pageSize: 1,
        maxProjects: 1,
        cursor: second.cursor!,
      });
      expect(third).toEqual({
        projects: 0,
        contexts_compressed: 0,
        projects_released: 0,
        generations_discarded: 0,
        snapshots_collected: 0,
        failures: [],
      });
      for (const [project, branch] of [
        [projectId, branchId],
        [other.project, other.branch],
      ] as const) {
        const loaded = await ok('load_context', { project_id: project, branch_id: branch });
        expect(loaded.metadata).toMatchObject({ compressed: true, message_count: 1 });
      }
    });
  });
}

/** The store, counting the batch deletes sent through it and the rows they carried. */
function countingBatchDeletes(store: DocumentStore): {
  store: DocumentStore;
  counts: { batches: number; rows: number };
} {
  const counts = { batches: 0, rows: 0 };
  const batchDelete: DocumentStore['batchDelete'] = (keys) => {
    counts.batches += 1;
    counts.rows += keys.length;
    return store.batchDelete(keys);
  };
  return { counts, store: passThroughStore(store, { batchDelete }) };
}

/** `before`, run once, ahead of the first call whose argument `matches`: a racing writer. */
function racingOnce<T>(matches: (arg: T) => boolean, before: () => Promise<unknown>) {
  let fired = false;
  return async (arg: T) => {
    if (fired || !matches(arg)) return;
    fired = true;
    await before();
  };
}

/** The store, with `before` run (once) ahead of the first delete that `matches`. */
function beforeDelete(
  store: DocumentStore,
  matches: (key: { pk: string; sk: string }) => boolean,
  before: () => Promise<unknown>,
): DocumentStore {
  const race = racingOnce(matches, before);
  return passThroughStore(store, {
    async delete(key, options) {
      await race(key);
      return store.delete(key, options);
    },
  });
}

/** The store, with `before` run (once) ahead of the first put that `matches`. */
function beforePut(
  store: DocumentStore,
  matches: (item: StoredItem) => boolean,
  before: () => Promise<unknown>,
): DocumentStore {
  const race = racingOnce(matches, before);
  return passThroughStore(store, {
    async put(item, options) {
      await race(item);
      return store.put(item, options);
    },
  });
}
