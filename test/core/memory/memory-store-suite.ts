import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nodeGzip } from '../../../lambdas/adapters/compression/node-gzip.js';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { BODY_THRESHOLD_BYTES } from '../../../lambdas/core/memory/store/memory-bodies.js';
import {
  entryRecord,
  generationPrefix,
  memoryPartition,
  recordItemKey,
} from '../../../lambdas/core/memory/store/memory-keys.js';
import { IDLE_COMPRESSION_MS, MemoryStore } from '../../../lambdas/core/memory/store/memory-store.js';
import type { Clock, DocumentStore } from '../../../lambdas/core/ports/index.js';
import { nodeRandom } from '../../../lambdas/runtime/node-random.js';
import { passThroughStore } from '../../support/pass-through-store.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/**
 * The memory store against one engine: dynalite (memory-store.test.ts) and DynamoDB Local
 * (memory-store-dynamodb-local.test.ts) run the same cases, through the real object graph.
 */
export function describeMemoryStore(engine: string, endpoint?: () => string): void {
  describe(`MemoryStore on ${engine}`, () => {
    let runtime: TestRuntime;
    let now = Date.parse('2026-11-23T09:00:00Z');
    const clock: Clock = { now: () => new Date(now) };
    let projectId: string;
    let branchId: string;

    /** Another store on the same table, as another process (or Lambda container) would have. */
    const anotherProcess = (store: DocumentStore = runtime.store) =>
      new MemoryStore({ store, blobs: runtime.memoryBlobs, clock, random: nodeRandom, compressor: nodeGzip });

    beforeAll(async () => {
      runtime = await startTestRuntime({ clock, ...(endpoint ? { endpoint: endpoint() } : {}) });
    });

    afterAll(async () => {
      await runtime.close();
    });

    beforeEach(async () => {
      projectId = (await runtime.rules.projects.create({ name: 'Shop' })).project_id;
      branchId = (await runtime.memory.createBranch(LOCAL_OWNER, projectId, { topic: 'Checkout' })).branch_id;
    });

    const append = (content: string, store = runtime.memory.memory) =>
      store.appendEntry(projectId, branchId, { role: 'assistant', content });

    describe('appendEntry', () => {
      it('keeps all 20 entries when 20 update_memory calls write one branch at once', async () => {
        const before = await runtime.memory.memory.revision(projectId);

        const written = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            runtime.memory.updateMemory(LOCAL_OWNER, projectId, {
              branch_id: branchId,
              role: 'user',
              content: `Message ${i}`,
            }),
          ),
        );

        const view = await runtime.memory.memory.branchView(projectId, branchId);
        expect(new Set(written.map((w) => w.entry.entry_id)).size).toBe(20);
        expect(view.entries.map((e) => e.content).sort()).toEqual(
          Array.from({ length: 20 }, (_, i) => `Message ${i}`).sort(),
        );
        expect(await runtime.memory.memory.revision(projectId)).not.toBe(before);
      });

      it('keeps all 20 when each writer is a separate process with its own store', async () => {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => append(`From process ${i}`, anotherProcess())),
        );

        const items = await runtime.memory.memory.items(projectId, { branch_id: branchId });
        expect(items.filter((i) => i.kind === 'entry')).toHaveLength(20);
      });

      it('stores a body above the threshold in the blob store and reads it back whole', async () => {
        const big = 'The checkout retries payments. '.repeat(Math.ceil((BODY_THRESHOLD_BYTES * 1.5) / 31));

        const entry = await append(big);

        const { generation } = await runtime.memory.memory.generations.pointer(projectId);
        const raw = await runtime.store.get(
          recordItemKey(projectId, generation, entryRecord(branchId, entry.entry_id)),
        );
        expect(raw?.content).toBeUndefined();
        const ref = (raw!.blobs as { content: { key: string; sha256: string } }).content;
        expect(await runtime.memoryBlobs.head(ref.key)).toMatchObject({ sha256: ref.sha256 });
        const view = await runtime.memory.memory.branchView(projectId, branchId);
        expect(view.entries[0]?.content).toBe(big);
      });

      it('keeps a small body in the table', async () => {
        const entry = await append('Short note.');

        const { generation } = await runtime.memory.memory.generations.pointer(projectId);
        const raw = await runtime.store.get(
          recordItemKey(projectId, generation, entryRecord(branchId, entry.entry_id)),
        );
        expect(raw).toMatchObject({ content: 'Short note.' });
        expect(raw?.blobs).toBeUndefined();
      });
    });

    describe('items', () => {
      /** The store, counting the table queries it sends. */
      const counting = () => {
        const calls = { query: 0, get: 0 };
        const store = new Proxy(runtime.store, {
          get(target, name, receiver) {
            const value = Reflect.get(target, name, receiver);
            if (name !== 'query' && name !== 'get')
              return typeof value === 'function' ? value.bind(target) : value;
            return (...args: unknown[]) => {
              calls[name] += 1;
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
        return { store, calls };
      };

      it('reads the records once per revision: a repeated read with nothing written costs one pointer read', async () => {
        await append('The cart keeps items for 30 days');
        const { store, calls } = counting();
        const reader = anotherProcess(store);
        const first = await reader.items(projectId);
        const queriesAfterFirst = calls.query;

        const second = await reader.items(projectId);

        expect(second).toEqual(first);
        expect(calls.query).toBe(queriesAfterFirst);
        expect(calls.get).toBe(2);
      });

      it('sees on its next read what another process wrote since', async () => {
        await append('First decision');
        const reader = anotherProcess();
        expect((await reader.items(projectId)).map((i) => i.text)).toEqual(['First decision']);
        now += 1000;

        await append('Second decision', anotherProcess());

        expect((await reader.items(projectId)).map((i) => i.text)).toEqual([
          'First decision',
          'Second decision',
        ]);
      });

      it('keeps its items up to date through its own appends and branches, without reading the records again', async () => {
        await append('First decision');
        const { store, calls } = counting();
        const writer = anotherProcess(store);
        await writer.items(projectId);
        const queriesAfterRead = calls.query;

        now += 1000;
        await append('Second decision', writer);
        const other = await writer.createBranch(projectId, { topic: 'Refunds' });
        now += 1000;
        await writer.appendEntry(projectId, other.branch_id, {
          role: 'user',
          content: 'Refunds take 5 days',
        });
        const items = await writer.items(projectId);

        expect(calls.query).toBe(queriesAfterRead);
        expect(items).toEqual(await anotherProcess().items(projectId));
        expect(items.map((i) => i.text)).toEqual([
          'First decision',
          'Second decision',
          'Refunds take 5 days',
        ]);
      });

      it('reads the records again when another process wrote between its read and its append', async () => {
        const writer = anotherProcess();
        await writer.items(projectId);
        await append('Written elsewhere', anotherProcess());

        await append('Written here', writer);

        const items = await writer.items(projectId);
        expect(items.map((i) => i.text).sort()).toEqual(['Written elsewhere', 'Written here']);
        expect(items).toEqual(await anotherProcess().items(projectId));
      });

      it('keeps all 20 of its own concurrent appends in the items it answers', async () => {
        const writer = anotherProcess();
        await writer.items(projectId);

        await Promise.all(Array.from({ length: 20 }, (_, i) => append(`Concurrent ${i}`, writer)));

        const items = await writer.items(projectId);
        expect(items).toHaveLength(20);
        expect(items).toEqual(await anotherProcess().items(projectId));
      });

      it('answers each caller its own list: sorting one does not reorder the next', async () => {
        await append('Alpha');
        now += 1000;
        await append('Beta');
        const reader = anotherProcess();

        (await reader.items(projectId)).reverse();

        expect((await reader.items(projectId)).map((i) => i.text)).toEqual(['Alpha', 'Beta']);
        expect(Object.isFrozen((await reader.items(projectId))[0])).toBe(true);
      });
    });

    describe('replaceEntry', () => {
      it('lets one of two replacements of the same version win and refuses the other with CONFLICT', async () => {
        const entry = await append('First draft.');

        const results = await Promise.allSettled(
          ['Draft A.', 'Draft B.'].map((content) =>
            runtime.memory.memory.replaceEntry(projectId, branchId, entry.entry_id, { content }, 1),
          ),
        );

        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
        const view = await runtime.memory.memory.branchView(projectId, branchId);
        expect(view.entries).toHaveLength(1);
        expect(view.entries[0]).toMatchObject({ version: 2 });
      });
    });

    describe('compressIfIdle and restoreContext', () => {
      it('compresses a context idle 30 minutes (summary kept, body gzipped) and restores it unchanged', async () => {
        // Hex text stays large after gzip, so the compressed body also goes to the blob store.
        const bodies = Array.from(
          { length: 3 },
          (_, i) => `Step ${i}. ${Buffer.from(nodeRandom.bytes(4000)).toString('hex')}`,
        );
        for (const body of bodies) await append(body);
        const before = await runtime.memory.memory.branchView(projectId, branchId);

        now += IDLE_COMPRESSION_MS - 60_000;
        expect(await runtime.memory.memory.compressIfIdle(projectId, branchId)).toBe(false);
        now += 120_000;
        expect(await runtime.memory.memory.compressIfIdle(projectId, branchId)).toBe(true);

        const compressed = await runtime.memory.memory.branchView(projectId, branchId);
        expect(compressed.status).toBe('compressed');
        expect(compressed.rows).toEqual([]);
        expect(compressed.entries).toEqual(before.entries);
        expect(compressed.context?.summary).toContain('Checkout — 3 messages');
        expect(compressed.contextBlobs).toHaveLength(1);
        const items = await runtime.memory.memory.items(projectId, { branch_id: branchId });
        expect(items.map((i) => i.kind).sort()).toEqual(['entry', 'entry', 'entry', 'summary']);

        expect(await runtime.memory.memory.restoreContext(projectId, branchId)).toBe(true);
        const restored = await runtime.memory.memory.branchView(projectId, branchId);
        expect(restored.status).toBe('active');
        expect(restored.rows).toEqual(before.entries);
        expect(await runtime.memoryBlobs.head(compressed.contextBlobs[0]!)).toBeUndefined();
      });

      it('deletes and puts back the entry rows of a 40-entry context several at a time, losing none', async () => {
        for (let i = 0; i < 40; i++) await append(`Entry ${i}.`);
        const writes = { inFlight: 0, peak: 0 };
        const counted = <T>(write: () => Promise<T>) => {
          writes.peak = Math.max(writes.peak, ++writes.inFlight);
          return write().finally(() => {
            writes.inFlight -= 1;
          });
        };
        const memory = anotherProcess(
          passThroughStore(runtime.store, {
            put: (item, options) => counted(() => runtime.store.put(item, options)),
            delete: (key, options) => counted(() => runtime.store.delete(key, options)),
          }),
        );
        const before = await memory.branchView(projectId, branchId);
        now += IDLE_COMPRESSION_MS + 1000;

        expect(await memory.compressIfIdle(projectId, branchId)).toBe(true);
        expect(writes.peak).toBeGreaterThan(1);
        expect((await memory.branchView(projectId, branchId)).rows).toEqual([]);
        writes.peak = 0;
        expect(await memory.restoreContext(projectId, branchId)).toBe(true);

        expect(writes.peak).toBeGreaterThan(1);
        expect(writes.peak).toBeLessThanOrEqual(16);
        const restored = await memory.branchView(projectId, branchId);
        expect(restored.rows).toHaveLength(40);
        expect(restored.rows).toEqual(before.entries);
      });

      it('does not compress a context that was written within 30 minutes', async () => {
        await append('Still working.');
        now += IDLE_COMPRESSION_MS / 2;
        await append('Still working, later.');
        now += IDLE_COMPRESSION_MS / 2 + 1000;

        expect(await runtime.memory.memory.compressIfIdle(projectId, branchId)).toBe(false);
      });

      it('keeps an entry written after compression, and merges it into the next compression', async () => {
        await append('Before the break.');
        now += IDLE_COMPRESSION_MS + 1000;
        await runtime.memory.memory.compressIfIdle(projectId, branchId);
        await append('After the break.');
        now += IDLE_COMPRESSION_MS + 1000;

        expect(await runtime.memory.memory.compressIfIdle(projectId, branchId)).toBe(true);
        const view = await runtime.memory.memory.branchView(projectId, branchId);
        expect(view.entries.map((e) => e.content)).toEqual(['Before the break.', 'After the break.']);
        expect(view.rows).toEqual([]);
      });
    });

    describe('generations (MemoryStateStore)', () => {
      it('swaps the whole state with one activation, and discards the old generation', async () => {
        await append('Kept in the snapshot.');
        const exported = await runtime.memory.memory.exportState(projectId);
        await append('Written after the export.');

        const staged = await runtime.memory.memory.stageGeneration(projectId, exported.records);
        const beforeActivation = await runtime.memory.memory.items(projectId);
        expect(beforeActivation.map((i) => i.text)).toContain('Written after the export.');

        await runtime.memory.memory.activateGeneration(projectId, staged, {
          generation: exported.generation,
        });
        const after = await runtime.memory.memory.items(projectId);
        expect(after.map((i) => i.text)).toEqual(['Kept in the snapshot.']);
        expect((await runtime.memory.memory.exportState(projectId)).records).toEqual(exported.records);

        await runtime.memory.memory.discardGeneration(projectId, exported.generation);
        const oldRows = await runtime.store.query({
          partition: memoryPartition(projectId),
          beginsWith: generationPrefix(exported.generation),
        });
        expect(oldRows.items).toEqual([]);
        await expect(runtime.memory.memory.discardGeneration(projectId, staged)).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        await expect(
          runtime.memory.memory.activateGeneration(projectId, exported.generation, { generation: 'g-stale' }),
        ).rejects.toMatchObject({ code: 'CONFLICT' });
      });

      it('carries blob-backed bodies inline in exported records', async () => {
        const big = 'x'.repeat(BODY_THRESHOLD_BYTES + 100);
        await append(big);

        const { records } = await runtime.memory.memory.exportState(projectId);

        const entry = records.find((r) => r.key.startsWith('ENT#'));
        expect(entry?.body).toMatchObject({ content: big });
        expect(entry?.body).not.toHaveProperty('blobs');
      });

      it('lets a process that last wrote before a restore write into the restored generation', async () => {
        const warm = anotherProcess();
        await append('Before the restore.', warm);
        const exported = await runtime.memory.memory.exportState(projectId);
        const staged = await runtime.memory.memory.stageGeneration(projectId, exported.records);
        await runtime.memory.memory.activateGeneration(projectId, staged, {
          generation: exported.generation,
        });
        now += 1000;

        await append('After the restore.', warm);

        const items = await runtime.memory.memory.items(projectId);
        expect(items.map((i) => i.text)).toEqual(['Before the restore.', 'After the restore.']);
        const stray = await runtime.store.query({
          partition: memoryPartition(projectId),
          beginsWith: `${generationPrefix(exported.generation)}${entryRecord(branchId, '')}`,
        });
        expect(stray.items).toHaveLength(1); // only the entry written before the restore
      });

      it('refuses with CONFLICT a write that raced a restore, and keeps it out of the new state', async () => {
        const exported = await runtime.memory.memory.exportState(projectId);
        const staged = await runtime.memory.memory.stageGeneration(projectId, exported.records);
        // A store that activates the restore right after the entry row is written.
        const store = runtime.store;
        const racing = passThroughStore(store, {
          put: async (item, options) => {
            await store.put(item, options);
            if (item.sk.includes('#ENT#')) {
              await runtime.memory.memory.activateGeneration(projectId, staged, {
                generation: exported.generation,
              });
            }
          },
        });

        await expect(append('Lost in the race?', anotherProcess(racing))).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        const items = await runtime.memory.memory.items(projectId);
        expect(items.map((i) => i.text)).not.toContain('Lost in the race?');
      });
    });
  });
}
