import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeGzip } from '../../../../lambdas/adapters/compression/node-gzip.js';
import { isDomainError } from '../../../../lambdas/core/errors.js';
import {
  type CloudSyncDeps,
  latestRemoteSnapshot,
} from '../../../../lambdas/core/memory/snapshots/cloud-target.js';
import { memoryFingerprint } from '../../../../lambdas/core/memory/snapshots/memory-fingerprint.js';
import { SnapshotCatalog } from '../../../../lambdas/core/memory/snapshots/snapshot-catalog.js';
import { snapshotKeys } from '../../../../lambdas/core/memory/snapshots/snapshot-vault.js';
import { syncFromCloud } from '../../../../lambdas/core/memory/snapshots/sync-from-cloud.js';
import { DEFAULT_SYNC_QUOTAS } from '../../../../lambdas/core/memory/snapshots/sync-quota.js';
import { syncToCloud } from '../../../../lambdas/core/memory/snapshots/sync-to-cloud.js';
import type { CloudTarget } from '../../../../lambdas/core/ports/index.js';
import { startSyncBucket } from '../../../support/sync-bucket.js';
import { type SnapshotWorld, seedMemory, startSnapshotWorld } from './snapshot-harness.js';

const BUCKET = 'org-memory-sync';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/**
 * Two Meridians (a laptop and a deployment: each its own table, blob store and data key) sharing
 * one organisation bucket on s3rver under one sync key.
 */
describe('cloud sync of project memory (two servers, s3rver bucket, Encryption SDK)', () => {
  let bucket: Awaited<ReturnType<typeof startSyncBucket>>;
  let laptop: SnapshotWorld;
  let server: SnapshotWorld;
  let cloud: CloudTarget;
  let project = 0;

  beforeAll(async () => {
    bucket = await startSyncBucket(BUCKET);
    cloud = bucket.cloud;
    [laptop, server] = await Promise.all([startSnapshotWorld(), startSnapshotWorld()]);
  });
  afterAll(async () => {
    await Promise.all([laptop?.close(), server?.close()]);
    await bucket?.close();
  });

  const sync = (world: SnapshotWorld, quotas = DEFAULT_SYNC_QUOTAS): CloudSyncDeps => ({
    ...world.deps,
    cloud,
    quotas,
    compressor: nodeGzip,
  });
  const fingerprint = async (world: SnapshotWorld, projectId: string) =>
    memoryFingerprint((await world.memory.exportState(projectId)).records);
  const note = (world: SnapshotWorld, projectId: string, text: string) =>
    world.memory.write(projectId, { key: `ENT#main#${text}`, body: { entry_id: text, content: text } });

  /** Laptop and server both in sync on one project: the laptop pushed, the server pulled. */
  async function inSync(): Promise<string> {
    const projectId = `prj_sync${++project}`;
    await seedMemory(laptop, projectId, `p${project}`);
    await syncToCloud(sync(laptop), projectId);
    await syncFromCloud(sync(server), projectId);
    expect(await fingerprint(server, projectId)).toBe(await fingerprint(laptop, projectId));
    return projectId;
  }

  type Change = 'neither' | 'local' | 'remote' | 'both';
  /** The laptop's view: `local` = the laptop wrote; `remote` = the server wrote and pushed. */
  async function change(projectId: string, what: Change): Promise<void> {
    if (what === 'remote' || what === 'both') {
      await note(server, projectId, 'server-side');
      await syncToCloud(sync(server), projectId);
    }
    if (what === 'local' || what === 'both') await note(laptop, projectId, 'laptop-side');
  }

  describe('sync_to_cloud: the conflict matrix', () => {
    it.each([
      ['neither', false, 'up_to_date'],
      ['neither', true, 'up_to_date'],
      ['local', false, 'uploaded'],
      ['local', true, 'uploaded'],
      ['remote', false, 'CONFLICT'],
      ['remote', true, 'uploaded'],
      ['both', false, 'CONFLICT'],
      ['both', true, 'uploaded'],
    ] as const)('%s changed, force %s → %s', async (what, force, outcome) => {
      const projectId = await inSync();
      await change(projectId, what);
      const laptopState = await fingerprint(laptop, projectId);

      if (outcome === 'CONFLICT') {
        const error = await rejection(syncToCloud(sync(laptop), projectId, { force }));
        expect(isDomainError(error, 'CONFLICT')).toBe(true);
        // The server's push is still the newest: the server is up to date, nothing was overwritten.
        expect((await syncToCloud(sync(server), projectId)).status).toBe('up_to_date');
        return;
      }
      const pushed = await syncToCloud(sync(laptop), projectId, { force });
      expect(pushed.status).toBe(outcome);
      expect(pushed.uploaded_bytes > 0).toBe(outcome === 'uploaded');
      // The laptop's state is now what the bucket holds: a forced pull elsewhere gets exactly it.
      await syncFromCloud(sync(server), projectId, { force: true });
      expect(await fingerprint(server, projectId)).toBe(laptopState);
    });
  });

  describe('sync_from_cloud: the conflict matrix', () => {
    it.each([
      ['neither', false, 'up_to_date'],
      ['neither', true, 'up_to_date'],
      ['local', false, 'CONFLICT'],
      ['local', true, 'restored'],
      ['remote', false, 'restored'],
      ['remote', true, 'restored'],
      ['both', false, 'CONFLICT'],
      ['both', true, 'restored'],
    ] as const)('%s changed, force %s → %s', async (what, force, outcome) => {
      const projectId = await inSync();
      await change(projectId, what);
      const before = await laptop.memory.exportState(projectId);

      if (outcome === 'CONFLICT') {
        const error = await rejection(syncFromCloud(sync(laptop), projectId, { force }));
        expect(isDomainError(error, 'CONFLICT')).toBe(true);
        expect(await laptop.memory.exportState(projectId)).toEqual(before);
        return;
      }
      const pulled = await syncFromCloud(sync(laptop), projectId, { force });
      expect(pulled.status).toBe(outcome);
      expect(await fingerprint(laptop, projectId)).toBe(await fingerprint(server, projectId));
      if (outcome === 'restored') {
        expect(pulled.downloaded_bytes).toBeGreaterThan(0);
        // The replaced state is kept in a snapshot, through the restore path: a new automatic one,
        // or, when nothing changed here since the push, the snapshot the push made of it.
        const backup = await new SnapshotCatalog(laptop.deps.store).find(
          projectId,
          pulled.backup_snapshot_id!,
        );
        expect(backup).toMatchObject({
          automatic: what !== 'remote',
          item_count: before.records.length,
          verified: true,
        });
      } else {
        expect(await laptop.memory.exportState(projectId)).toEqual(before);
      }
    });
  });

  it('uploads only ciphertext: the bucket never holds a word of the memory', async () => {
    const projectId = await inSync();
    await note(laptop, projectId, 'visible-marker-text');
    const { snapshot_id } = await syncToCloud(sync(laptop), projectId);
    const archive = await cloud.blobs.get(snapshotKeys(projectId, snapshot_id).archive);
    expect(Buffer.from(archive).includes('visible-marker-text')).toBe(false);
    expect(Buffer.from(archive).includes('Postgres')).toBe(false);
  });

  it('refuses a pull of a tampered remote snapshot with INTEGRITY_FAILED, data untouched', async () => {
    const projectId = await inSync();
    await note(server, projectId, 'server-side');
    const { snapshot_id } = await syncToCloud(sync(server), projectId);
    const key = snapshotKeys(projectId, snapshot_id).archive;
    const bytes = Buffer.from(await cloud.blobs.get(key));
    bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] ?? 0) ^ 0x04;
    await cloud.blobs.delete(key);
    await cloud.blobs.put(key, bytes);
    const before = await laptop.memory.exportState(projectId);

    const error = await rejection(syncFromCloud(sync(laptop), projectId));

    expect(isDomainError(error, 'INTEGRITY_FAILED')).toBe(true);
    expect(await laptop.memory.exportState(projectId)).toEqual(before);
  });

  it('publishes nothing when the uploaded copy does not read back intact (STORAGE_ERROR)', async () => {
    const projectId = await inSync();
    const head = await latestRemoteSnapshot(cloud, projectId);
    await note(laptop, projectId, 'damaged on the way');
    // A bucket that damages what it is given: one bit of every archive uploaded.
    const damaging: CloudTarget = {
      ...cloud,
      blobs: Object.assign(Object.create(cloud.blobs), {
        put: async (key: string, bytes: Uint8Array) => {
          const copy = Buffer.from(bytes);
          if (key.endsWith('/archive')) copy[copy.length >> 1] = (copy[copy.length >> 1] ?? 0) ^ 0x04;
          return cloud.blobs.put(key, copy);
        },
      }),
    };

    const error = await rejection(syncToCloud({ ...sync(laptop), cloud: damaging }, projectId));

    expect(isDomainError(error, 'STORAGE_ERROR')).toBe(true);
    expect(await latestRemoteSnapshot(cloud, projectId)).toEqual(head);
  });

  it('refuses uploads past the daily quota with QUOTA_EXCEEDED', async () => {
    const projectId = await inSync();
    const quotas = { uploadsPerDay: 2, downloadsPerDay: 20 };
    await note(laptop, projectId, 'one');
    await syncToCloud(sync(laptop, quotas), projectId); // the second upload of the day (inSync made one)
    await note(laptop, projectId, 'two');

    const error = await rejection(syncToCloud(sync(laptop, quotas), projectId));

    expect(isDomainError(error, 'QUOTA_EXCEEDED')).toBe(true);
    expect((await syncToCloud(sync(laptop, { ...quotas, uploadsPerDay: 3 }), projectId)).status).toBe(
      'uploaded',
    );
  });

  it('refuses downloads past the daily quota with QUOTA_EXCEEDED', async () => {
    const projectId = await inSync(); // the server's first download
    const quotas = { uploadsPerDay: 100, downloadsPerDay: 1 };
    await note(laptop, projectId, 'one');
    await syncToCloud(sync(laptop), projectId);

    const error = await rejection(syncFromCloud(sync(server, quotas), projectId));

    expect(isDomainError(error, 'QUOTA_EXCEEDED')).toBe(true);
  });
});
