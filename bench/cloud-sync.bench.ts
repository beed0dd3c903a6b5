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
    const write = (world: SnapshotWorld) => {
      writes += 1;
      return world.memory.write(PROJECT, {
        key: `ENT#main#w${writes}`,
        body: { entry_id: `w${writes}`, branch_id: 'main', content: `Change ${writes}` },
      });
    };

    const push = await compare(
      {
        name: 'sync_to_cloud',
        fn: async () => {
          await write(laptop);
          await syncToCloud(sync(laptop), PROJECT, { force: true });
        },
      },
      {
        name: 'create_snapshot',
        fn: async () => {
          await write(laptop);
          await createSnapshot(laptop.deps, PROJECT);
        },
      },
      OPTIONS,
    );
    reportFigure(
      `push of ${ENTRIES.toLocaleString('en-US')} entries vs create_snapshot alone (medians)`,
      `${push.candidate.medianMs.toFixed(0)} ms vs ${push.baseline.medianMs.toFixed(0)} ms → ` +
        `${(push.candidate.medianMs / push.baseline.medianMs).toFixed(2)}×`,
    );

    const local = await createSnapshot(server.deps, PROJECT);
    const pull = await compare(
      {
        name: 'sync_from_cloud (force)',
        fn: async () => {
          await write(server);
          await syncFromCloud(sync(server), PROJECT, { force: true });
        },
      },
      {
        name: 'restore_snapshot',
        fn: async () => {
          await write(server);
          await restoreSnapshot(server.deps, PROJECT, local.snapshot_id);
        },
      },
      OPTIONS,
    );
    reportFigure(
      `forced pull of ${ENTRIES.toLocaleString('en-US')} entries vs restore_snapshot alone (medians)`,
      `${pull.candidate.medianMs.toFixed(0)} ms vs ${pull.baseline.medianMs.toFixed(0)} ms → ` +
        `${(pull.candidate.medianMs / pull.baseline.medianMs).toFixed(2)}×`,
    );
  } finally {
    await Promise.all([laptop.close(), server.close()]);
    await bucket.close();
  }
}
