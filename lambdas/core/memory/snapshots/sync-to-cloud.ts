import { compareAndSet } from '../../compare-and-set.js';
import { DomainError } from '../../errors.js';
import { BlobExistsError } from '../../ports/index.js';
import { readCloudSyncState, recordCloudSync } from './cloud-sync-state.js';
import {
  type CloudSyncDeps,
  cloudPath,
  cloudVault,
  latestRemoteSnapshot,
  publishHead,
  sameRemote,
} from './cloud-target.js';
import { contentFingerprint } from './content-fingerprint.js';
import { captureSnapshot } from './create-snapshot.js';
import { readsBackIntact, writeSnapshot } from './snapshot-vault.js';
import { spendSyncQuota } from './sync-quota.js';

export interface PushResult {
  status: 'uploaded' | 'up_to_date';
  snapshot_id: string;
  uploaded_bytes: number;
  cloud_path: string;
  /** The remote version now recorded (the number of the bucket's head). */
  remote_version: string;
}

const PUBLISH_ATTEMPTS = 5;

/** The steps of a push and of a pull, in order, for progress displays. */
export const PUSH_PHASES = ['compare', 'snapshot', 'upload', 'verify', 'record'] as const;
export const PULL_PHASES = ['compare', 'download', 'restore', 'record'] as const;
export type SyncPhase = (typeof PUSH_PHASES)[number] | (typeof PULL_PHASES)[number];

export interface SyncOptions {
  /** Overwrite what the other side changed since the last sync. */
  force?: boolean | undefined;
  onPhase?: ((phase: SyncPhase) => void) | undefined;
}

/**
 * Pushes the project's memory to the cloud bucket as a new snapshot, encrypted before upload.
 * Refused with CONFLICT when the bucket holds a snapshot this side has not seen (another machine
 * pushed since), unless `force`. Nothing is uploaded when neither side changed.
 *
 * @example
 * await syncToCloud(deps, 'prj_1'); // { status: 'uploaded', snapshot_id: 'snap_…', … }
 */
export async function syncToCloud(
  deps: CloudSyncDeps,
  projectId: string,
  options: SyncOptions = {},
): Promise<PushResult> {
  options.onPhase?.('compare');
  // Three independent reads (the table, the bucket, the memory), at once.
  const [recorded, remote, exported] = await Promise.all([
    readCloudSyncState(deps.store, projectId),
    latestRemoteSnapshot(deps.cloud, projectId),
    deps.state.exportState(projectId),
  ]);
  const remoteChanged = !sameRemote(remote, recorded);
  if (remoteChanged && remote && !options.force) {
    throw new DomainError(
      'CONFLICT',
      `The bucket holds snapshot ${remote.snapshot_id} of this project, pushed since this server last synced: ` +
        'call sync_from_cloud to take it first, or sync_to_cloud with force: true to push over it.',
      { remote_snapshot_id: remote.snapshot_id },
    );
  }
  const localChanged =
    recorded?.local_fingerprint !== (await contentFingerprint(exported.records, deps.compressor));
  if (!localChanged && !remoteChanged && remote) {
    return {
      status: 'up_to_date',
      snapshot_id: remote.snapshot_id,
      uploaded_bytes: 0,
      cloud_path: cloudPath(deps.cloud, projectId, remote.snapshot_id),
      remote_version: remote.version,
    };
  }
  await spendSyncQuota(deps.store, projectId, 'upload', deps.quotas.uploadsPerDay, deps.clock.now());
  options.onPhase?.('snapshot');
  // The state just compared is the one pushed. A write since is pushed next time: the memory's
  // fingerprint then differs from the one recorded below.
  const captured = await captureSnapshot(
    deps,
    projectId,
    { description: `Pushed to ${deps.cloud.location}` },
    exported,
  );
  const { created: snapshot, built } = captured;
  if (!snapshot.verified) throw unverified(`The snapshot ${snapshot.snapshot_id} of the memory`, 'here');
  options.onPhase?.('upload');
  const uploaded = await writeSnapshot(cloudVault(deps), built);
  options.onPhase?.('verify');
  const expected = { projectId, snapshotId: snapshot.snapshot_id, manifestSha256: built.manifestSha256 };
  if (!(await readsBackIntact(cloudVault(deps), expected))) {
    throw unverified(`The snapshot ${snapshot.snapshot_id} uploaded`, `from ${deps.cloud.location}`);
  }
  options.onPhase?.('record');
  const version = await publish(
    deps,
    projectId,
    remote?.version,
    {
      snapshot_id: snapshot.snapshot_id,
      manifest_sha256: built.manifestSha256,
    },
    options.force === true,
  );
  await recordCloudSync(deps.store, projectId, {
    remote_snapshot_id: snapshot.snapshot_id,
    remote_version: version,
    local_fingerprint: await contentFingerprint(captured.records, deps.compressor),
    direction: 'push',
    synced_at: deps.clock.now().toISOString(),
  });
  return {
    status: 'uploaded',
    snapshot_id: snapshot.snapshot_id,
    uploaded_bytes: uploaded.sizeBytes,
    cloud_path: cloudPath(deps.cloud, projectId, snapshot.snapshot_id),
    remote_version: version,
  };
}

/**
 * Makes the uploaded snapshot the bucket's newest. Another push that took the next head first is
 * a conflict like any other remote change; with `force` this push goes on top of it instead.
 */
async function publish(
  deps: CloudSyncDeps,
  projectId: string,
  seen: string | undefined,
  head: { snapshot_id: string; manifest_sha256: string },
  force: boolean,
): Promise<string> {
  return compareAndSet(
    async (attempt) => {
      const after = attempt === 1 ? seen : (await latestRemoteSnapshot(deps.cloud, projectId))?.version;
      return publishHead(deps.cloud, projectId, after, head);
    },
    {
      maxAttempts: force ? PUBLISH_ATTEMPTS : 1,
      isLostRace: (error) => error instanceof BlobExistsError,
      exhausted: () =>
        new DomainError(
          'CONFLICT',
          `Another server pushed this project to ${deps.cloud.location} at the same time: call sync_from_cloud to take its snapshot, or retry with force: true.`,
        ),
    },
  );
}

/** A push stops before publishing anything when a copy it just wrote does not read back intact. */
function unverified(what: string, where: string): DomainError {
  return new DomainError(
    'STORAGE_ERROR',
    `${what} did not read back intact ${where}, so nothing was published. Retry the push.`,
  );
}
