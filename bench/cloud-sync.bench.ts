/**
 * Cloud sync of a project of 5,000 memory entries between two Meridians (each its own dynalite
 * table, file blob store and data key) through an s3rver bucket, against the local operation each
 * one wraps: a push against create_snapshot alone (the push adds the compare, the upload, its
 * read-back check and the head), a forced pull against restore_snapshot alone (the pull adds the
 * compare, the download and its full verification, and keeping the snapshot locally). There is
 * no target in the issue; the figures show what sync costs on top of a snapshot, and catch a
 * regression such as a second export or a second verification.
 */
import { nodeGzip } from '../lambdas/adapters/compression/node-gzip.js';
import { createSnapshot } from '../lambdas/core/memory/snapshots/create-snapshot.js';
import { restoreSnapshot } from '../lambdas/core/memory/snapshots/restore-snapshot.js';
import { syncFromCloud } from '../lambdas/core/memory/snapshots/sync-from-cloud.js';
import { syncToCloud } from '../lambdas/core/memory/snapshots/sync-to-cloud.js';
import { type SnapshotWorld, startSnapshotWorld } from '../test/core/memory/snapshots/snapshot-harness.js';
import { startSyncBucket } from '../test/support/sync-bucket.js';
import { compare, reportFigure } from './harness.js';

const ENTRIES = 5_000;
const PROJECT = 'prj_bench_sync';
const OPTIONS = { rounds: 3, runs: 3, warmup: 1 };

async function seed(world: SnapshotWorld, tag: string): Promise<void> {
  for (let i = 0; i < ENTRIES; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, j) => {
        const id = `${tag}${i + j}`;
        return world.memory.write(PROJECT, {
          key: `ENT#main#${id}`,
          body: {
            entry_id: id,
            branch_id: 'main',
            content: `Decision ${i + j}: the billing service moves to Postgres 16; see src/billing/${i + j}.ts.`,
            created_at: '2026-11-23T20:00:00Z',
          },
        });
      }),
    );
  }
}

export async function run(): Promise<void> {
  const bucket = await startSyncBucket('bench-sync');
  const [laptop, server] = await Promise.all([startSnapshotWorld(), startSnapshotWorld()]);
  try {
    const quotas = { uploadsPerDay: 1_000_000, downloadsPerDay: 1_000_000 };
    const sync = (world: SnapshotWorld) => ({
      ...world.deps,
      cloud: bucket.cloud,
      quotas,
      compressor: nodeGzip,
    });
    await Promise.all([seed(laptop, 'l'), seed(server, 's')]);
    let writes = 0;
    // Every timed call starts from a change, so that no push or pull is answered "up to date".
    const afterAChange = (world: SnapshotWorld, name: string, operation: () => Promise<unknown>) => ({
      name,
      fn: async () => {
        writes += 1;
        await world.memory.write(PROJECT, {
          key: `ENT#main#w${writes}`,
          body: { entry_id: `w${writes}`, branch_id: 'main', content: `Change ${writes}` },
        });
        await operation();
      },
    });
    const report = (title: string, { candidate, baseline }: Awaited<ReturnType<typeof compare>>) =>
      reportFigure(
        `${title} (medians)`,
        `${candidate.medianMs.toFixed(0)} ms vs ${baseline.medianMs.toFixed(0)} ms → ` +
          `${(candidate.medianMs / baseline.medianMs).toFixed(2)}×`,
      );
    const entries = ENTRIES.toLocaleString('en-US');

    report(
      `push of ${entries} entries vs create_snapshot alone`,
      await compare(
        afterAChange(laptop, 'sync_to_cloud', () => syncToCloud(sync(laptop), PROJECT, { force: true })),
        afterAChange(laptop, 'create_snapshot', () => createSnapshot(laptop.deps, PROJECT)),
        OPTIONS,
      ),
    );
    const local = await createSnapshot(server.deps, PROJECT);
    report(
      `forced pull of ${entries} entries vs restore_snapshot alone`,
      await compare(
        afterAChange(server, 'sync_from_cloud (force)', () =>
          syncFromCloud(sync(server), PROJECT, { force: true }),
        ),
        afterAChange(server, 'restore_snapshot', () =>
          restoreSnapshot(server.deps, PROJECT, local.snapshot_id),
        ),
        OPTIONS,
      ),
    );
  } finally {
    await Promise.all([laptop.close(), server.close()]);
    await bucket.close();
  }
}
