import type { ExportedState, MemoryRecord } from '../store/memory-records.js';
import { SnapshotCatalog, type SnapshotEntry } from './snapshot-catalog.js';
import type { SnapshotDeps } from './snapshot-deps.js';
import { newSnapshotId } from './snapshot-ids.js';
import { type BuiltSnapshot, buildSnapshot } from './snapshot-manifest.js';
import { toSnapshotItem } from './snapshot-records.js';
import { readsBackIntact } from './snapshot-vault.js';
import { writeSnapshotMarked } from './unlisted-snapshots.js';

export interface CreateSnapshotOptions {
  description?: string | undefined;
  /** Saved by a restore or a pull, not asked for. */
  automatic?: boolean;
}

export interface CreatedSnapshot extends SnapshotEntry {
  /** The generation the state was captured from. */
  generation: string;
  /** That generation's revision when it was captured: a later write changes it. */
  revision: string;
}

/**
 * Captures the project's memory as a snapshot: every record of the current generation (large
 * bodies inlined), in an archive and a manifest (the previous snapshot's manifest hash
 * chained in), each encrypted under `{project_id, snapshot_id}` and stored create-only. Then
 * reads both back, decrypts, unzips and checks their hashes: `verified` is true only if they held.
 *
 * @example
 * const snap = await createSnapshot(deps, 'prj_1', { description: 'Before the refactor' });
 */
export async function createSnapshot(
  deps: SnapshotDeps,
  projectId: string,
  options: CreateSnapshotOptions = {},
): Promise<CreatedSnapshot> {
  return (await captureSnapshot(deps, projectId, options)).created;
}

/**
 * {@link createSnapshot}, also answering what it built and the records it captured: what a push
 * uploads and fingerprints without reading the snapshot back a second time. Given `exported` (the
 * state the caller just read, whose generation and revision date it), it snapshots that state
 * instead of reading it again.
 */
export async function captureSnapshot(
  deps: SnapshotDeps,
  projectId: string,
  options: CreateSnapshotOptions = {},
  exported?: ExportedState,
): Promise<{ created: CreatedSnapshot; built: BuiltSnapshot; records: MemoryRecord[] }> {
  const catalog = new SnapshotCatalog(deps.store);
  const [{ generation, revision, records }, previous] = await Promise.all([
    exported ?? deps.state.exportState(projectId),
    catalog.latest(projectId),
  ]);
  const snapshotId = newSnapshotId(deps.clock, deps.random);
  const createdAt = deps.clock.now().toISOString();
  const built = buildSnapshot({
    projectId,
    snapshotId,
    createdAt,
    ...(options.description === undefined ? {} : { description: options.description }),
    previousManifestSha256: previous?.manifest_sha256 ?? null,
    items: records.map(toSnapshotItem),
    blobs: [],
  });
  const stored = await writeSnapshotMarked(deps, built);
  const verified = await readsBackIntact(deps, {
    projectId,
    snapshotId,
    manifestSha256: built.manifestSha256,
  });
  const entry: SnapshotEntry = {
    snapshot_id: snapshotId,
    created_at: createdAt,
    ...(options.description === undefined ? {} : { description: options.description }),
    automatic: options.automatic ?? false,
    size_bytes: stored.sizeBytes,
    item_count: records.length,
    manifest_sha256: built.manifestSha256,
    verified,
  };
  // The note spares a restore that follows with no write in between its backup. Written beside
  // the entry: a note whose entry failed to land matches no catalogued snapshot, so it is ignored.
  await Promise.all([
    catalog.add(projectId, entry),
    verified && catalog.noteStateHeld(projectId, { generation, revision, snapshot_id: snapshotId }),
  ]);
  return { created: { ...entry, generation, revision }, built, records };
}
