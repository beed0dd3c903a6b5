import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeGzip } from '../../../../lambdas/adapters/compression/node-gzip.js';
import { canonicalJson } from '../../../../lambdas/core/canonical-json.js';
import { isDomainError } from '../../../../lambdas/core/errors.js';
import { createSnapshot } from '../../../../lambdas/core/memory/snapshots/create-snapshot.js';
import { memoryFingerprint } from '../../../../lambdas/core/memory/snapshots/memory-fingerprint.js';
import { restoreSnapshot } from '../../../../lambdas/core/memory/snapshots/restore-snapshot.js';
import { SnapshotCatalog } from '../../../../lambdas/core/memory/snapshots/snapshot-catalog.js';
import {
  readSnapshot,
  readSnapshotPlaintext,
  snapshotKeys,
  writeSnapshot,
} from '../../../../lambdas/core/memory/snapshots/snapshot-vault.js';
import { entryRecord } from '../../../../lambdas/core/memory/store/memory-keys.js';
import { type BlobStore, sha256Hex } from '../../../../lambdas/core/ports/index.js';
import { nodeRandom } from '../../../../lambdas/runtime/node-random.js';
import {
  blobCount,
  flipStoredBit,
  SeedableMemory,
  type SnapshotWorld,
  seedMemory,
  startSnapshotWorld,
} from './snapshot-harness.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('memory snapshots (dynalite, file blob store, Encryption SDK)', () => {
  let world: SnapshotWorld;
  let project = 0;
  const nextProject = () => `prj_snap${++project}`;

  beforeAll(async () => {
    world = await startSnapshotWorld();
  });
  afterAll(async () => {
    await world.close();
  });

  const fingerprintOf = async (projectId: string) =>
    memoryFingerprint((await world.memory.exportState(projectId)).records);

  describe('createSnapshot', () => {
    it('stores every record and referenced blob, verified by reading back, and lists it', async () => {
      const projectId = nextProject();
      await seedMemory(world, projectId, 'a');

      const created = await createSnapshot(world.deps, projectId, { description: 'Before refactor' });

      expect(created).toMatchObject({
        verified: true,
        item_count: 4,
        description: 'Before refactor',
        automatic: false,
      });
      expect(created.size_bytes).toBeGreaterThan(0);
      const content = await readSnapshot(world.deps, {
        projectId,
        snapshotId: created.snapshot_id,
        manifestSha256: created.manifest_sha256,
      });
      expect(content.items.map((i) => i.kind).sort()).toEqual(['branch', 'context', 'entry', 'entry']);
      // The large body is offloaded to a blob in the store, and travels inline in the snapshot.
      expect(await blobCount(world, projectId)).toBe(1);
      expect(JSON.stringify(content.items)).toContain('Bug a fixed in src/app.ts. Bug a');
      const listed = await new SnapshotCatalog(world.deps.store).list(projectId);
      expect(listed.map((s) => s.snapshot_id)).toEqual([created.snapshot_id]);
    });

    it('chains each manifest to the previous one', async () => {
      const projectId = nextProject();
      await seedMemory(world, projectId, 'a');
      const first = await createSnapshot(world.deps, projectId);
      const second = await createSnapshot(world.deps, projectId);

      const content = await readSnapshot(world.deps, { projectId, snapshotId: second.snapshot_id });
      expect(content.manifest.body.previous_manifest_sha256).toBe(first.manifest_sha256);
      const catalog = await new SnapshotCatalog(world.deps.store).list(projectId);
      expect(catalog.map((s) => s.snapshot_id)).toEqual([second.snapshot_id, first.snapshot_id]);
    });
  });

  describe('restoreSnapshot', () => {
    it('writes the large bodies it restores several at a time, each to its own blob', async () => {
      const projectId = nextProject();
      const records = Array.from({ length: 20 }, (_, i) => ({
        key: entryRecord('main', `big-${i}`),
        body: { entry_id: `big-${i}`, content: `Body ${i}: ${'a long note. '.repeat(1000)}` },
      }));
      for (const record of records) await world.memory.write(projectId, record);
      const snap = await createSnapshot(world.deps, projectId);
      // A small write since, so that the restore has a state to replace.
      await world.memory.write(projectId, {
        key: 'ENT#main#later',
        body: { entry_id: 'later', content: 'later' },
      });
      const puts = { inFlight: 0, peak: 0, count: 0 };
      const countingBlobs: BlobStore = {
        get: (key, options) => world.blobs.get(key, options),
        head: (key) => world.blobs.head(key),
        delete: (key) => world.blobs.delete(key),
        list: (prefix) => world.blobs.list(prefix),
        async put(key, bytes) {
          puts.count += 1;
          puts.peak = Math.max(puts.peak, ++puts.inFlight);
          try {
            return await world.blobs.put(key, bytes);
          } finally {
            puts.inFlight -= 1;
          }
        },
      };
      const memory = new SeedableMemory({
        store: world.deps.store,
        blobs: countingBlobs,
        clock: world.deps.clock,
        random: nodeRandom,
        compressor: nodeGzip,
      });

      await restoreSnapshot({ ...world.deps, state: memory }, projectId, snap.snapshot_id);

      // 20 for the restored state; the backup inlines the bodies it holds, writing none.
      expect(puts.count).toBe(20);
      expect(puts.peak).toBeGreaterThan(1);
      expect(puts.peak).toBeLessThanOrEqual(16);
      const contentOf = (list: { key: string; body: unknown }[]) =>
        Object.fromEntries(list.map((r) => [r.key, (r.body as { content: string }).content]));
      expect(contentOf((await world.memory.exportState(projectId)).records)).toEqual(contentOf(records));
    });

    it('restores the snapshot the memory already holds by changing nothing, answering its counts', async () => {
      const projectId = nextProject();
      await seedMemory(world, projectId, 'a');
      const snap = await createSnapshot(world.deps, projectId);
      const before = await world.memory.exportState(projectId);
      const catalogBefore = await new SnapshotCatalog(world.deps.store).list(projectId);

      const restored = await restoreSnapshot(world.deps, projectId, snap.snapshot_id);

      expect(restored).toEqual({
        snapshot_id: snap.snapshot_id,
        backup_snapshot_id: snap.snapshot_id,
        restored_items: 4,
        restored_contexts: 1,
        restored_branches: 1,
        verified: true,
      });
      // The same generation at the same revision: nothing was staged, switched or backed up.
      expect(await world.memory.exportState(projectId)).toEqual(before);
      expect(await new SnapshotCatalog(world.deps.store).list(projectId)).toEqual(catalogBefore);
    });

    it('brings back the snapshot state, large bodies included, after saving the current one', async () => {
      const projectId = nextProject();
      await seedMemory(world, projectId, 'a');
      const before = await fingerprintOf(projectId);
      const snap = await createSnapshot(world.deps, projectId);
      // Later the entry with the large body is gone, and so is its blob.
      const { generation } = await world.memory.exportState(projectId);
      const later = [{ key: 'ENT#main#later', body: { entry_id: 'later', content: 'later' } }];
      await world.memory.activateGeneration(projectId, await world.memory.stageGeneration(projectId, later), {
        generation,
      });
      await world.memory.discardGeneration(projectId, generation);
      expect(await blobCount(world, projectId)).toBe(0);
      const changed = await fingerprintOf(projectId);

      const restored = await restoreSnapshot(world.deps, projectId, snap.snapshot_id);

      expect(restored).toMatchObject({
        restored_items: 4,
        restored_contexts: 1,
        restored_branches: 1,
        verified: true,
      });
      expect(await fingerprintOf(projectId)).toBe(before);
      expect(await blobCount(world, projectId)).toBe(1);
      const backup = await new SnapshotCatalog(world.deps.store).find(projectId, restored.backup_snapshot_id);
      expect(backup).toMatchObject({ automatic: true, item_count: 1, verified: true });

      await restoreSnapshot(world.deps, projectId, restored.backup_snapshot_id);
      expect(await fingerprintOf(projectId)).toBe(changed);
    });

    const first = (_length: number): number => 0;
    const middle = (length: number): number => Math.floor(length / 2);
    const last = (length: number): number => length - 1;
    it.each([
      ['archive', 'first byte', first],
      ['archive', 'middle byte', middle],
      ['archive', 'last byte', last],
      ['manifest', 'middle byte', middle],
      ['manifest', 'last byte', last],
    ] as const)(
      'refuses a snapshot with one bit flipped in its %s (%s), data untouched',
      async (object, _where, at) => {
        const projectId = nextProject();
        await seedMemory(world, projectId, 'a');
        const snap = await createSnapshot(world.deps, projectId);
        await world.memory.write(projectId, {
          key: 'ENT#main#later',
          body: { entry_id: 'later', content: 'later' },
        });
        const current = await world.memory.exportState(projectId);
        const snapshotsBefore = await new SnapshotCatalog(world.deps.store).list(projectId);
        await flipStoredBit(world, snapshotKeys(projectId, snap.snapshot_id)[object], at);

        const error = await rejection(restoreSnapshot(world.deps, projectId, snap.snapshot_id));

        expect(isDomainError(error, 'INTEGRITY_FAILED')).toBe(true);
        expect(await world.memory.exportState(projectId)).toEqual(current);
        // Refused before the automatic backup: nothing at all was written.
        expect(await new SnapshotCatalog(world.deps.store).list(projectId)).toEqual(snapshotsBefore);
      },
    );

    /** A stored snapshot's plaintext, its archive parsed with the first item's content changed. */
    async function withFirstItemChanged(projectId: string, snapshotId: string, content: string) {
      const { built } = await readSnapshotPlaintext(world.deps, { projectId, snapshotId });
      const archive = JSON.parse(new TextDecoder().decode(built.archiveBytes));
      archive.items[0].data = { ...archive.items[0].data, content };
      return { built, archive };
    }

    /**
     * A snapshot like `snapshotId` under the id `forgedId`, built by hand rather than by
     * buildSnapshot: its first item's data changed, and its archive hash, manifest body hash and
     * manifest hash all recomputed to match — but the manifest still lists the first item's old
     * hash. Stored encrypted under its own context and catalogued as not verified.
     */
    async function forgeSnapshot(projectId: string, snapshotId: string, forgedId: string) {
      const { built, archive } = await withFirstItemChanged(projectId, snapshotId, 'forged');
      archive.snapshot_id = forgedId;
      const archiveBytes = new TextEncoder().encode(canonicalJson(archive));
      const { body } = JSON.parse(new TextDecoder().decode(built.manifestBytes));
      body.snapshot_id = forgedId;
      body.archive = { sha256: sha256Hex(archiveBytes), size: archiveBytes.byteLength };
      const manifest = { body, body_sha256: sha256Hex(canonicalJson(body)) };
      const manifestBytes = new TextEncoder().encode(canonicalJson(manifest));
      const manifestSha256 = sha256Hex(manifestBytes);
      await writeSnapshot(world.deps, { manifest, manifestBytes, archiveBytes, manifestSha256 });
      await new SnapshotCatalog(world.deps.store).add(projectId, {
        snapshot_id: forgedId,
        created_at: body.created_at,
        automatic: false,
        size_bytes: archiveBytes.byteLength + manifestBytes.byteLength,
        item_count: body.items.length,
        manifest_sha256: manifestSha256,
        verified: false,
      });
    }

    it('hashes every item again for a snapshot its catalog does not vouch for, refusing a manifest that lists another hash', async () => {
      const projectId = nextProject();
      await seedMemory(world, projectId, 'a');
      const snap = await createSnapshot(world.deps, projectId);
      const forgedId = 'snap_20260101T000000000_0000f04d';
      await forgeSnapshot(projectId, snap.snapshot_id, forgedId);
      const current = await world.memory.exportState(projectId);

      const error = await rejection(restoreSnapshot(world.deps, projectId, forgedId));

      expect(isDomainError(error, 'INTEGRITY_FAILED')).toBe(true);
      expect(await world.memory.exportState(projectId)).toEqual(current);
    });

    it('refuses a vouched snapshot whose archive was replaced by other bytes that decrypt under its context', async () => {
      const projectId = nextProject();
      await seedMemory(world, projectId, 'a');
      const snap = await createSnapshot(world.deps, projectId);
      const { archive } = await withFirstItemChanged(projectId, snap.snapshot_id, 'replaced');
      const replaced = await world.deps.encryption.encrypt(
        await world.deps.compressor.compress(new TextEncoder().encode(canonicalJson(archive))),
        { project_id: projectId, snapshot_id: snap.snapshot_id },
      );
      const { archive: archiveKey } = snapshotKeys(projectId, snap.snapshot_id);
      // The file store is create-only: the stored object is removed first (as flipStoredBit does).
      await rm(join(world.blobRoot, `${archiveKey}~`));
      await world.blobs.put(archiveKey, replaced);
      const current = await world.memory.exportState(projectId);

      const error = await rejection(restoreSnapshot(world.deps, projectId, snap.snapshot_id));

      expect(isDomainError(error, 'INTEGRITY_FAILED')).toBe(true);
      expect(await world.memory.exportState(projectId)).toEqual(current);
    });

    it('takes a new backup when the snapshot holding the current state no longer verifies', async () => {
      const projectId = nextProject();
      await seedMemory(world, projectId, 'a');
      const first = await createSnapshot(world.deps, projectId);
      await world.memory.write(projectId, {
        key: 'ENT#main#later',
        body: { entry_id: 'later', content: 'later' },
      });
      // Made with no write since: it holds the current state, and would back the restore up.
      const holding = await createSnapshot(world.deps, projectId);
      const current = await world.memory.exportState(projectId);
      await flipStoredBit(
        world,
        snapshotKeys(projectId, holding.snapshot_id).archive,
        (length) => length >> 1,
      );

      const restored = await restoreSnapshot(world.deps, projectId, first.snapshot_id);

      expect(restored.backup_snapshot_id).not.toBe(holding.snapshot_id);
      const backup = await new SnapshotCatalog(world.deps.store).find(projectId, restored.backup_snapshot_id);
      expect(backup).toMatchObject({ automatic: true, verified: true, item_count: current.records.length });
      await restoreSnapshot(world.deps, projectId, restored.backup_snapshot_id);
      expect(await fingerprintOf(projectId)).toBe(memoryFingerprint(current.records));
    });

    it('refuses a snapshot id the project does not have with NOT_FOUND', async () => {
      const projectId = nextProject();
      const error = await rejection(
        restoreSnapshot(world.deps, projectId, 'snap_20260101T000000000_00000000'),
      );
      expect(isDomainError(error, 'NOT_FOUND')).toBe(true);
    });

    it("refuses another project's snapshot copied under this project's keys", async () => {
      const source = nextProject();
      const target = nextProject();
      await seedMemory(world, source, 'a');
      await seedMemory(world, target, 'b');
      const snap = await createSnapshot(world.deps, source);
      const entry = await new SnapshotCatalog(world.deps.store).find(source, snap.snapshot_id);
      const keysFrom = snapshotKeys(source, snap.snapshot_id);
      const keysTo = snapshotKeys(target, snap.snapshot_id);
      await world.blobs.put(keysTo.archive, await world.blobs.get(keysFrom.archive));
      await world.blobs.put(keysTo.manifest, await world.blobs.get(keysFrom.manifest));
      await new SnapshotCatalog(world.deps.store).add(target, entry!);
      const current = await world.memory.exportState(target);

      const error = await rejection(restoreSnapshot(world.deps, target, snap.snapshot_id));

      expect(isDomainError(error, 'INTEGRITY_FAILED')).toBe(true);
      expect(await world.memory.exportState(target)).toEqual(current);
    });
  });
});
