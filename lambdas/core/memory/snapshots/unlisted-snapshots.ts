import type { BlobStore, Clock, DocumentStore, StoredItem } from '../../ports/index.js';
import { GSI1PK, PK_PREFIX, SK } from '../../storage/key-prefixes.js';
import { visitIndexUpTo } from '../../storage/visit-index.js';
import { DROP_GRACE_MS } from '../contexts/generation-drops.js';
import { SnapshotCatalog } from './snapshot-catalog.js';
import type { BuiltSnapshot } from './snapshot-manifest.js';
import {
  type SnapshotVaultDeps,
  type StoredSnapshot,
  snapshotKeys,
  writeSnapshot,
} from './snapshot-vault.js';

/**
 * A snapshot's objects are stored first and its catalog entry written last, so a process killed
 * in between (kill -9, a Lambda's timeout) leaves a complete snapshot nobody lists, and nothing
 * would ever remove it. So before its objects are written, a marker is put in the table; the
 * scheduled memory sweep, once {@link UNLISTED_GRACE_MS} has passed, removes the objects of each
 * marked snapshot the catalog does not list, and the marker with them.
 *
 * The grace is what keeps a snapshot still being made safe: writing, reading back and listing one
 * takes seconds (a Lambda stops at 15 minutes), the grace an hour. A marker is left in place when
 * the entry lands — clearing it would be one more write on every snapshot for a sweep that reads
 * only markers whose grace is over: finding the entry, it clears the marker alone.
 */

/** How long after its objects began to be written an unlisted snapshot waits before it is collected. */
export const UNLISTED_GRACE_MS = DROP_GRACE_MS;

/** Markers visited in one sweep run at most; the rest wait for the next one. */
const DEFAULT_MAX_SNAPSHOTS = 100;
const PAGE_SIZE = 25;

export interface UnlistedSnapshotDeps {
  store: DocumentStore;
  /** The memory's blob store, where the snapshots' objects are. */
  blobs: BlobStore;
  clock: Clock;
}

export interface UnlistedSnapshotSummary {
  /** Snapshots whose objects were removed: written, never listed. */
  collected: number;
  /** Markers whose snapshot failed to be checked or removed; they stay for the next run. */
  failures: { project_id: string; error: string }[];
}

const markerKey = (projectId: string, snapshotId: string) => ({
  pk: `${PK_PREFIX.memorySnapshots}${projectId}`,
  sk: `${SK.memorySnapshots.unlistedPrefix}${snapshotId}`,
});

/**
 * Marks the snapshot for collection unless listed, then stores its objects ({@link writeSnapshot}).
 * Every write of a snapshot into the memory's own vault goes through here.
 *
 * @example
 * const stored = await writeSnapshotMarked({ ...deps }, built);
 */
export async function writeSnapshotMarked(
  deps: SnapshotVaultDeps & { store: DocumentStore; clock: Clock },
  built: BuiltSnapshot,
): Promise<StoredSnapshot> {
  const { project_id: projectId, snapshot_id: snapshotId } = built.manifest.body;
  const collectAfter = new Date(deps.clock.now().getTime() + UNLISTED_GRACE_MS).toISOString();
  // The marker is written while the parts are compressed and encrypted; writeSnapshot stores
  // nothing until it has landed, so no object is ever without its marker.
  const marked = deps.store.put({
    ...markerKey(projectId, snapshotId),
    gsi1pk: GSI1PK.unlistedSnapshots,
    gsi1sk: collectAfter,
  });
  return writeSnapshot(deps, built, marked);
}

/**
 * Removes the objects of every marked snapshot whose grace has passed and that the catalog does
 * not list, and clears the markers; idempotent and bounded (`maxSnapshots` a run, `shouldStop`
 * asked before each page).
 *
 * @example
 * const { collected } = await collectUnlistedSnapshots({ store, blobs, clock });
 */
export async function collectUnlistedSnapshots(
  deps: UnlistedSnapshotDeps,
  options: { maxSnapshots?: number; shouldStop?: (() => boolean) | undefined } = {},
): Promise<UnlistedSnapshotSummary> {
  const summary: UnlistedSnapshotSummary = { collected: 0, failures: [] };
  const catalog = new SnapshotCatalog(deps.store);
  await visitIndexUpTo(
    deps.store,
    { partition: GSI1PK.unlistedSnapshots, upTo: deps.clock.now().toISOString() },
    {
      pageSize: PAGE_SIZE,
      max: options.maxSnapshots ?? DEFAULT_MAX_SNAPSHOTS,
      shouldStop: options.shouldStop,
    },
    async (marker) => {
      const { projectId, snapshotId } = snapshotOfMarker(marker);
      try {
        if (!(await catalog.find(projectId, snapshotId))) {
          const keys = snapshotKeys(projectId, snapshotId);
          await Promise.all([deps.blobs.delete(keys.archive), deps.blobs.delete(keys.manifest)]);
          summary.collected += 1;
        }
        // Last: a run that dies before this finds the marker again and repeats the check.
        await deps.store.delete(markerKey(projectId, snapshotId));
      } catch (error) {
        summary.failures.push({ project_id: projectId, error: String(error) });
      }
    },
  );
  return summary;
}

function snapshotOfMarker(marker: StoredItem): { projectId: string; snapshotId: string } {
  return {
    projectId: marker.pk.slice(PK_PREFIX.memorySnapshots.length),
    snapshotId: marker.sk.slice(SK.memorySnapshots.unlistedPrefix.length),
  };
}
