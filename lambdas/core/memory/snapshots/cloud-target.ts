import * as z from 'zod';
import { DomainError } from '../../errors.js';
import {
  BlobExistsError,
  BlobIntegrityError,
  BlobNotFoundError,
  type CloudTarget,
} from '../../ports/index.js';
import type { SnapshotDeps } from './snapshot-deps.js';
import type { SnapshotVaultDeps } from './snapshot-vault.js';
import type { SyncQuotas } from './sync-quota.js';

/*
 * Sync's layout in the organisation's bucket (the CloudTarget port): each pushed snapshot under
 * `projects/<p>/snapshots/<id>/` (as in the local vault), and a numbered head
 * `projects/<p>/sync-head/<000000000001>` per push naming it. Heads are create-only, so two
 * servers pushing on top of the same head cannot both succeed, whatever their clocks say: the
 * loser finds the number taken and is told to pull first.
 */

export interface CloudSyncDeps extends SnapshotDeps {
  cloud: CloudTarget;
  quotas: SyncQuotas;
}

/** The cloud bucket and key as a snapshot vault, packing with the deployment's compressor. */
export function cloudVault(deps: CloudSyncDeps): SnapshotVaultDeps {
  return { blobs: deps.cloud.blobs, encryption: deps.cloud.encryption, compressor: deps.compressor };
}

const HeadBody = z.object({ snapshot_id: z.string(), manifest_sha256: z.string() });

export interface RemoteSnapshot {
  snapshot_id: string;
  /** The manifest hash the snapshot must verify against. */
  manifest_sha256: string;
  /** The head's number: the remote version, as an object version id would be. */
  version: string;
}

const SEQUENCE_DIGITS = 12;

/**
 * Every key sync writes in the organisation's bucket starts with this (the snapshot vault's
 * `projects/<p>/snapshots/…` and the heads): the CDK grant is scoped to it, so the bucket may
 * hold other data the deployment cannot touch.
 */
export const CLOUD_SYNC_KEY_PREFIX = 'projects/';
const headsPrefix = (projectId: string) => `${CLOUD_SYNC_KEY_PREFIX}${projectId}/sync-head/`;

/** The snapshot the project's newest head names, or undefined when nothing was pushed. */
export async function latestRemoteSnapshot(
  cloud: CloudTarget,
  projectId: string,
): Promise<RemoteSnapshot | undefined> {
  const prefix = headsPrefix(projectId);
  let newest: string | undefined;
  let cursor: string | undefined;
  do {
    const page = await cloud.blobs.list({ prefix, ...(cursor ? { cursor } : {}) });
    newest = page.blobs.at(-1)?.key ?? newest;
    cursor = page.cursor;
  } while (cursor);
  if (newest === undefined) return undefined;
  const parsed = HeadBody.safeParse(parseJson(await cloud.blobs.get(newest)));
  if (!parsed.success) {
    throw new DomainError(
      'INTEGRITY_FAILED',
      `The sync head ${newest} in ${cloud.location} is damaged; push with force: true to write a new one.`,
    );
  }
  return { ...parsed.data, version: newest.slice(prefix.length) };
}

/**
 * Writes the head after `after` (the remote version this push saw), create-only.
 *
 * @returns the new remote version
 * @throws BlobExistsError when another push took that number first
 */
export async function publishHead(
  cloud: CloudTarget,
  projectId: string,
  after: string | undefined,
  head: z.infer<typeof HeadBody>,
): Promise<string> {
  const version = String(Number(after ?? 0) + 1).padStart(SEQUENCE_DIGITS, '0');
  await cloud.blobs.put(
    `${headsPrefix(projectId)}${version}`,
    new TextEncoder().encode(JSON.stringify(head)),
  );
  return version;
}

/** The same remote head as the one recorded? */
export function sameRemote(
  remote: RemoteSnapshot | undefined,
  recorded: { remote_snapshot_id: string; remote_version: string } | undefined,
): boolean {
  if (!remote || !recorded) return remote === undefined && recorded === undefined;
  return remote.snapshot_id === recorded.remote_snapshot_id && remote.version === recorded.remote_version;
}

export function cloudPath(cloud: CloudTarget, projectId: string, snapshotId: string): string {
  return `${cloud.location}/projects/${projectId}/snapshots/${snapshotId}/`;
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/**
 * The target with every bucket failure that is not a blob-store answer (exists, missing,
 * damaged) reported as NETWORK_ERROR: the caller can retry, and learns nothing of the SDK.
 */
export function reportingNetworkErrors(cloud: CloudTarget): CloudTarget {
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof DomainError || BLOB_ANSWERS.some((kind) => error instanceof kind)) throw error;
      throw new DomainError(
        'NETWORK_ERROR',
        `The cloud sync bucket ${cloud.location} could not be reached (${(error as Error)?.name ?? 'error'}); retry in a minute.`,
        {},
        { cause: error },
      );
    }
  };
  const blobs = cloud.blobs;
  return {
    ...cloud,
    blobs: {
      put: (key, bytes) => guard(() => blobs.put(key, bytes)),
      get: (key, options) => guard(() => blobs.get(key, options)),
      head: (key) => guard(() => blobs.head(key)),
      delete: (key) => guard(() => blobs.delete(key)),
      list: (options) => guard(() => blobs.list(options)),
    },
  };
}

const BLOB_ANSWERS = [BlobExistsError, BlobNotFoundError, BlobIntegrityError];
