import { compareAndSet } from '../../compare-and-set.js';
import { DomainError } from '../../errors.js';
import { MemoryChangedError } from '../store/memory-records.js';
import { type CreatedSnapshot, createSnapshot } from './create-snapshot.js';
import { SnapshotCatalog } from './snapshot-catalog.js';
import type { SnapshotDeps } from './snapshot-deps.js';
import { SnapshotIntegrityError, type SnapshotItem } from './snapshot-manifest.js';
import { countKind, recordsMatchSnapshot, toMemoryRecord } from './snapshot-records.js';
import { snapshotRefusal } from './snapshot-refusal.js';
import {
  readSnapshotToRestore,
  readsBackIntact,
  SnapshotNotFoundError,
  type SnapshotToRestore,
} from './snapshot-vault.js';

/**
 * How many backups a restore takes while writes keep landing before its switch; then it gives
 * up with CONFLICT (the writes kept, nothing restored) rather than race them forever.
 */
const BACKUP_ATTEMPTS = 3;

/** The steps of a restore, in order, for progress displays. */
export const RESTORE_PHASES = ['verify', 'backup', 'stage', 'activate', 'check'] as const;
export type RestorePhase = (typeof RESTORE_PHASES)[number];

export interface RestoredSnapshot {
  snapshot_id: string;
  /**
   * The snapshot holding the state this restore replaced: restore it to undo. A new automatic
   * one, or the snapshot that already held that state (the one restored before, or one made
   * since the last write).
   */
  backup_snapshot_id: string;
  restored_items: number;
  restored_contexts: number;
  restored_branches: number;
  verified: true;
}

/**
 * Replaces the project's memory with a snapshot's, old-or-new and never a mix:
 *
 * 1. read, decrypt and verify the snapshot (any flipped bit: INTEGRITY_FAILED, nothing touched);
 * 2. save the current state as an automatic snapshot (the undo), unless a verified snapshot
 *    holds it already: the one the last restore activated, or one made since the last write —
 *    and when that is the snapshot asked for, the memory is its already and the restore ends here;
 * 3. stage the records as a new generation nothing reads yet (large bodies go to new blobs);
 * 4. activate it with one conditional write, only if the memory is still at the backup's
 *    generation and revision (CONFLICT if another restore got there first; a write since the
 *    backup means a new backup and another try, up to BACKUP_ATTEMPTS);
 * 5. read the state back and check every record against the hash the snapshot's manifest lists.
 *
 * A failure before 4 discards the staged generation; a failed check at 5 activates the old one
 * again. If the process dies instead, the staged generation is garbage nobody reads, and the
 * generation pointer names the old state or the new one. The generation a restore replaced (the
 * backup snapshot holds it) and one a dead process staged are dropped an hour later by the
 * scheduled sweep (generation-drops.ts), not here: at 5,000 entries on dynalite the deletes alone
 * took half a second, as long as staging, and nothing reads those rows while they wait.
 */
export async function restoreSnapshot(
  deps: SnapshotDeps,
  projectId: string,
  snapshotId: string,
  options: { onPhase?: ((phase: RestorePhase) => void) | undefined } = {},
): Promise<RestoredSnapshot> {
  const phase = options.onPhase ?? (() => undefined);
  phase('verify');
  // Only reads, so it runs beside the verification; a new backup is written only once that passed.
  // The snapshot being restored may be the one holding the state (restored twice in a row): the
  // check below then proves it readable, so it is not read back a second time.
  const held = snapshotHoldingCurrentState(deps, projectId, snapshotId);
  held.catch(() => undefined); // awaited below unless the verification throws first
  const stored = await verifiedSnapshot(deps, projectId, snapshotId);
  if ((await held)?.snapshot_id === snapshotId) {
    // The memory is this snapshot's already (restored twice, or a retried restore): the note
    // says so and any write since would have moved the revision. Nothing to stage or switch.
    return {
      snapshot_id: snapshotId,
      backup_snapshot_id: snapshotId,
      restored_items: stored.listed(),
      restored_contexts: stored.listed('context'),
      restored_branches: stored.listed('branch'),
      verified: true,
    };
  }
  const snapshot = { items: parsedItems(stored, projectId, snapshotId) };
  const records = snapshot.items.map(toMemoryRecord);
  phase('backup');
  let backup = await backupOf(deps, projectId, snapshotId, held);
  phase('stage');
  const staged = await deps.state.stageGeneration(projectId, records);
  phase('activate');
  let activatedRevision: string;
  try {
    ({ backup, activatedRevision } = await activateOverBackup(deps, projectId, snapshotId, staged, backup));
  } catch (error) {
    await discardQuietly(deps, projectId, staged);
    throw error;
  }
  const previous = backup.generation;
  const expected = snapshot;
  phase('check');
  await checkActivated(deps, projectId, { staged, previous, expected, activatedRevision });
  await new SnapshotCatalog(deps.store).noteStateHeld(projectId, {
    generation: staged,
    revision: activatedRevision,
    snapshot_id: snapshotId,
  });
  return {
    snapshot_id: snapshotId,
    backup_snapshot_id: backup.snapshot_id,
    restored_items: records.length,
    restored_contexts: countKind(snapshot.items, 'context'),
    restored_branches: countKind(snapshot.items, 'branch'),
    verified: true,
  };
}

/**
 * Switches to the staged generation only if the memory is still as the backup captured it: a
 * write landing after the backup would otherwise be in neither the backup nor the restored state.
 * Such a write means a fresh backup and another try; answers the backup the switch was made over
 * and the revision the switch set.
 */
async function activateOverBackup(
  deps: SnapshotDeps,
  projectId: string,
  snapshotId: string,
  staged: string,
  first: Backup,
): Promise<{ backup: Backup; activatedRevision: string }> {
  return compareAndSet(
    async (attempt) => {
      const backup = attempt === 1 ? first : await backupOf(deps, projectId, snapshotId);
      const activatedRevision = await deps.state.activateGeneration(projectId, staged, {
        generation: backup.generation,
        revision: backup.revision,
      });
      return { backup, activatedRevision };
    },
    { maxAttempts: BACKUP_ATTEMPTS, isLostRace: (error) => error instanceof MemoryChangedError },
  );
}

/** What a restore switches over: the snapshot holding the state it replaces, and that state. */
type Backup = Pick<CreatedSnapshot, 'snapshot_id' | 'generation' | 'revision'>;

/**
 * The snapshot of the current state that a restore can be undone with: one that holds it already
 * (`held`, when the lookup was started earlier), else a new automatic one, which must verify.
 */
async function backupOf(
  deps: SnapshotDeps,
  projectId: string,
  snapshotId: string,
  held = snapshotHoldingCurrentState(deps, projectId),
): Promise<Backup> {
  return (await held) ?? newBackup(deps, projectId, snapshotId);
}

/** A new automatic snapshot of the current state, which must verify. */
async function newBackup(deps: SnapshotDeps, projectId: string, snapshotId: string): Promise<Backup> {
  const backup = await createSnapshot(deps, projectId, {
    description: `Automatic, before restoring ${snapshotId}`,
    automatic: true,
  });
  if (!backup.verified) {
    // Without a backup that reads back, a restore that went wrong later could not be undone.
    throw new DomainError(
      'STORAGE_ERROR',
      `The automatic backup ${backup.snapshot_id} of the current memory did not verify, so nothing was restored. Retry the restore.`,
    );
  }
  return backup;
}

/**
 * A snapshot that already holds the current state exactly — the one a restore activated, or one
 * made since the last write — read back and found intact (readsBackIntact), so that restoring
 * twice in a row, or undoing a restore, does not save the same state once more. Undefined when
 * none is known or it is no longer intact: then a new backup is taken.
 */
async function snapshotHoldingCurrentState(
  deps: SnapshotDeps,
  projectId: string,
  verifiedBeforeUse?: string,
): Promise<Backup | undefined> {
  const state = await deps.state.currentState(projectId);
  const entry = await new SnapshotCatalog(deps.store).snapshotHolding(projectId, state);
  if (!entry) return undefined;
  // `verifiedBeforeUse`: a snapshot the caller reads and verifies whole before it uses the answer.
  if (entry.snapshot_id === verifiedBeforeUse) return { snapshot_id: entry.snapshot_id, ...state };
  const intact = await readsBackIntact(deps, {
    projectId,
    snapshotId: entry.snapshot_id,
    manifestSha256: entry.manifest_sha256,
  });
  if (!intact) return undefined;
  return { snapshot_id: entry.snapshot_id, ...state };
}

/**
 * The snapshot, checked against the manifest hash its catalog entry recorded: one the catalog
 * vouches for (`verified`: built here, or pulled and verified whole) by its recorded hashes, any
 * other by recomputing every item's hash (snapshot-vault.ts, readSnapshotToRestore).
 *
 * @throws DomainError NOT_FOUND (no such snapshot) or INTEGRITY_FAILED (damaged, tampered, misplaced)
 */
export async function verifiedSnapshot(
  deps: SnapshotDeps,
  projectId: string,
  snapshotId: string,
): Promise<SnapshotToRestore> {
  const entry = await new SnapshotCatalog(deps.store).find(projectId, snapshotId);
  if (!entry) throw snapshotNotFound(projectId, snapshotId);
  const expected = { projectId, snapshotId, manifestSha256: entry.manifest_sha256 };
  try {
    return await readSnapshotToRestore(deps, expected, entry.verified);
  } catch (error) {
    throw refusalOf(error, projectId, snapshotId);
  }
}

/** The snapshot's items, refused as {@link verifiedSnapshot} refuses if the archive does not read. */
function parsedItems(stored: SnapshotToRestore, projectId: string, snapshotId: string): SnapshotItem[] {
  try {
    return stored.items();
  } catch (error) {
    throw refusalOf(error, projectId, snapshotId);
  }
}

function refusalOf(error: unknown, projectId: string, snapshotId: string): unknown {
  if (error instanceof SnapshotNotFoundError) return snapshotNotFound(projectId, snapshotId, error);
  if (error instanceof SnapshotIntegrityError)
    return snapshotRefusal({ snapshotId }, error, 'Restore another snapshot (list_snapshots).');
  return error;
}

/**
 * Step 5. Once an agent has written to the restored state (its revision moved past the one the
 * switch set), the state is no longer the snapshot's to compare, and switching back would drop that
 * write: the restore stands. Otherwise a mismatch rolls back, and only over that same revision.
 */
async function checkActivated(
  deps: SnapshotDeps,
  projectId: string,
  generations: {
    staged: string;
    previous: string;
    expected: { items: readonly SnapshotItem[] };
    activatedRevision: string;
  },
): Promise<void> {
  let matches = false;
  let revision = generations.activatedRevision;
  try {
    const now = await deps.state.exportState(projectId);
    if (now.generation === generations.staged && now.revision !== generations.activatedRevision) return;
    revision = now.revision;
    matches =
      now.generation === generations.staged && recordsMatchSnapshot(now.records, generations.expected);
  } catch (error) {
    await rollBack(deps, projectId, { ...generations, revision });
    throw error;
  }
  if (matches) return;
  await rollBack(deps, projectId, { ...generations, revision });
  throw new DomainError(
    'STORAGE_ERROR',
    'The restored memory did not read back as the snapshot holds it, so the previous state was put back. Retry the restore.',
  );
}

async function rollBack(
  deps: SnapshotDeps,
  projectId: string,
  generations: { staged: string; previous: string; revision: string },
): Promise<void> {
  // Over the revision last seen only: a write since then stays (MemoryChangedError, no switch back).
  await deps.state.activateGeneration(projectId, generations.previous, {
    generation: generations.staged,
    revision: generations.revision,
  });
  await discardQuietly(deps, projectId, generations.staged);
}

/** Leftover generations are garbage nobody reads; failing to drop one must not fail the restore. */
async function discardQuietly(deps: SnapshotDeps, projectId: string, generation: string): Promise<void> {
  try {
    await deps.state.discardGeneration(projectId, generation);
  } catch {
    // Marked when staged, so the scheduled sweep drops it (generation-drops.ts); the current one is unaffected.
  }
}

function snapshotNotFound(projectId: string, snapshotId: string, cause?: unknown): DomainError {
  return new DomainError(
    'NOT_FOUND',
    `Project ${projectId} has no snapshot "${snapshotId}". Call list_snapshots for the ids.`,
    { field: 'snapshot_id' },
    { cause },
  );
}
