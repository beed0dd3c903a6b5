import { DomainError } from '../../errors.js';
import { BlobExistsError } from '../../ports/index.js';
import { readCloudSyncState, recordCloudSync } from './cloud-sync-state.js';
import {
  type CloudSyncDeps,
  cloudPath,
  cloudVault,
  latestRemoteSnapshot,
  type RemoteSnapshot,
  sameRemote,
} from './cloud-target.js';
import { contentFingerprint } from './content-fingerprint.js';
import { restoreSnapshot } from './restore-snapshot.js';
import { SnapshotCatalog } from './snapshot-catalog.js';
import { type BuiltSnapshot, SnapshotIntegrityError } from './snapshot-manifest.js';
import { countKind, toMemoryRecord } from './snapshot-records.js';
import { snapshotRefusal } from './snapshot-refusal.js';
import { readSnapshotPlaintext } from './snapshot-vault.js';
import { spendSyncQuota } from './sync-quota.js';
import type { SyncOptions } from './sync-to-cloud.js';
import { writeSnapshotMarked } from './unlisted-snapshots.js';

export interface PullResult {
  status: 'restored' | 'up_to_date';
  snapshot_id: string;
  downloaded_bytes: number;
  cloud_path: string;
  remote_version: string;
  restored_items: number;
  restored_contexts: number;
  restored_branches: number;
  /** The automatic snapshot of the state the pull replaced (absent when nothing was restored). */
  backup_snapshot_id?: string;
}

/**
 * Pulls the project's newest snapshot from the cloud bucket and restores it through the restore
 * path (verified first, current state saved as an automatic snapshot, old-or-new). Refused with
 * CONFLICT when the local memory changed since the last sync (those changes would be replaced),
 * unless `force`.
 *
 * @example
 * await syncFromCloud(deps, 'prj_1'); // { status: 'restored', restored_items: 42, … }
 */
export async function syncFromCloud(
  deps: CloudSyncDeps,
  projectId: string,
  options: SyncOptions = {},
): Promise<PullResult> {
  options.onPhase?.('compare');
  // Three independent reads (the table, the bucket, the memory), at once.
  const [recorded, remote, { records }] = await Promise.all([
    readCloudSyncState(deps.store, projectId),
    latestRemoteSnapshot(deps.cloud, projectId),
    deps.state.exportState(projectId),
  ]);
  if (!remote) {
    throw new DomainError(
      'NOT_FOUND',
      `${deps.cloud.location} holds no snapshot of project ${projectId}: push one first with sync_to_cloud.`,
    );
  }
  const fingerprint = await contentFingerprint(records, deps.compressor);
  // Never synced: only an empty memory has nothing to lose.
  const localChanged = recorded ? recorded.local_fingerprint !== fingerprint : records.length > 0;
  if (localChanged && !options.force) {
    throw new DomainError(
      'CONFLICT',
      'This project has memory changes not pushed since the last sync, which a pull would replace: ' +
        'call sync_to_cloud first, or sync_from_cloud with force: true to replace them (an automatic snapshot keeps them).',
    );
  }
  if (!localChanged && recorded && sameRemote(remote, recorded)) {
    return {
      status: 'up_to_date',
      snapshot_id: remote.snapshot_id,
      downloaded_bytes: 0,
      cloud_path: cloudPath(deps.cloud, projectId, remote.snapshot_id),
      remote_version: remote.version,
      restored_items: 0,
      restored_contexts: 0,
      restored_branches: 0,
    };
  }
  await spendSyncQuota(deps.store, projectId, 'download', deps.quotas.downloadsPerDay, deps.clock.now());
  options.onPhase?.('download');
  const downloaded = await download(deps, projectId, remote);
  options.onPhase?.('restore');
  const restored = await restoreSnapshot(deps, projectId, remote.snapshot_id);
  options.onPhase?.('record');
  await recordCloudSync(deps.store, projectId, {
    remote_snapshot_id: remote.snapshot_id,
    remote_version: remote.version,
    // What the memory held when the restore ended: the downloaded items, which the restore
    // checked the activated state against (the same manifest hash).
    local_fingerprint: await contentFingerprint(downloaded.items.map(toMemoryRecord), deps.compressor),
    direction: 'pull',
    synced_at: deps.clock.now().toISOString(),
  });
  return {
    status: 'restored',
    snapshot_id: remote.snapshot_id,
    downloaded_bytes: downloaded.bytes,
    cloud_path: cloudPath(deps.cloud, projectId, remote.snapshot_id),
    remote_version: remote.version,
    restored_items: restored.restored_items,
    restored_contexts: countKind(downloaded.items, 'context'),
    restored_branches: countKind(downloaded.items, 'branch'),
    backup_snapshot_id: restored.backup_snapshot_id,
  };
}

/**
 * Reads and verifies the remote snapshot under the cloud key, then keeps it in the local vault
 * under the data key (the same id: a snapshot this server pushed is already there), so restore
 * reads it like any local snapshot.
 */
async function download(deps: CloudSyncDeps, projectId: string, head: RemoteSnapshot) {
  const snapshotId = head.snapshot_id;
  let remote: Awaited<ReturnType<typeof readSnapshotPlaintext>>;
  try {
    remote = await readSnapshotPlaintext(cloudVault(deps), {
      projectId,
      snapshotId,
      manifestSha256: head.manifest_sha256,
    });
  } catch (error) {
    if (!(error instanceof SnapshotIntegrityError)) throw error;
    throw snapshotRefusal(
      { snapshotId, where: deps.cloud.location },
      error,
      'Push it again with sync_to_cloud from the Meridian that made it.',
    );
  }
  const catalog = new SnapshotCatalog(deps.store);
  if (!(await catalog.find(projectId, snapshotId))) {
    const stored = await keepLocally(deps, remote.built);
    const body = remote.verified.manifest.body;
    await catalog.add(projectId, {
      snapshot_id: snapshotId,
      created_at: body.created_at,
      description: `Pulled from ${deps.cloud.location}`,
      automatic: false,
      size_bytes: stored.sizeBytes,
      item_count: body.items.length,
      manifest_sha256: remote.built.manifestSha256,
      verified: true,
    });
  }
  return { bytes: remote.storedBytes, items: remote.verified.items };
}

/** Writes the snapshot to the local vault; objects left by an earlier pull that died are reused. */
async function keepLocally(deps: CloudSyncDeps, built: BuiltSnapshot): Promise<{ sizeBytes: number }> {
  try {
    return await writeSnapshotMarked(deps, built);
  } catch (error) {
    if (!(error instanceof BlobExistsError)) throw error;
    // Restore checks them against this manifest hash, so reusing them cannot restore other bytes.
    return { sizeBytes: built.archiveBytes.byteLength + built.manifestBytes.byteLength };
  }
}
