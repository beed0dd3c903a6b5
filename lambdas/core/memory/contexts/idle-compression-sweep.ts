import type { BlobStore, Clock, DocumentStore } from '../../ports/index.js';
import { GSI1PK } from '../../storage/key-prefixes.js';
import { visitIndexUpTo } from '../../storage/visit-index.js';
import { collectUnlistedSnapshots } from '../snapshots/unlisted-snapshots.js';
import { projectOfPartition } from '../store/memory-keys.js';
import type { MemoryStore } from '../store/memory-store.js';
import { IDLE_COMPRESSION_MS } from './context-compression.js';
import { dropMarkedGenerations } from './generation-drops.js';

/**
 * The scheduled half of idle compression: contexts nobody reads are compressed too. It reads the
 * idle index (GSI1PK.idleMemory: the pointer of every project written since it was last swept,
 * sorted by that last write), never the table: only projects idle for {@link IDLE_COMPRESSION_MS}
 * come back. Each of their contexts still kept as rows goes through compressIfIdle, the one
 * compression routine (conditional writes: an entry written meanwhile stays a row, merged on read).
 * A project with nothing left to compress leaves the index, conditional on its revision, so a
 * write that races the sweep keeps it there. Compressing writes the pointer (and so keeps the
 * project in the index), so a project leaves on the visit after the one that compressed it.
 *
 * Each run first drops the memory generations restores left behind (generation-drops.ts) and
 * removes the snapshots a crash left written but never listed (snapshots/unlisted-snapshots.ts).
 */

export interface IdleSweepDeps {
  store: DocumentStore;
  memory: MemoryStore;
  /** The memory's blob store, where unlisted snapshots are collected from. */
  blobs: BlobStore;
  clock: Clock;
}

export interface IdleSweepOptions {
  /** Projects read from the index at once. @default 25 */
  pageSize?: number;
  /** Projects visited in this run at most; the rest wait for the next one. @default 500 */
  maxProjects?: number;
  /** Where the previous run stopped (its summary's `cursor`). @default - the oldest idle project */
  cursor?: string;
  /** Asked before each page: true stops the run there (a Lambda near its timeout). */
  shouldStop?: () => boolean;
}

export interface IdleSweepSummary {
  projects: number;
  contexts_compressed: number;
  /** Projects that left the index: nothing of theirs was left to compress. */
  projects_released: number;
  /** Generations deleted: replaced by a restore, or staged by one that never switched to them. */
  generations_discarded: number;
  /** Snapshots whose objects were removed: written, then never listed (a crash in between). */
  snapshots_collected: number;
  /** Projects whose visit failed; the index keeps them for the next run. */
  failures: { project_id: string; error: string }[];
  /** Present when the run stopped before the end of the index: pass it to the next run. */
  cursor?: string;
}

const DEFAULT_PAGE_SIZE = 25;
const DEFAULT_MAX_PROJECTS = 500;

/**
 * Compresses every context idle for 30 minutes, in projects the idle index lists. Idempotent: a
 * second run over the same state compresses nothing. Bounded: `pageSize` projects per read,
 * `maxProjects` per run, and a cursor to carry on from.
 *
 * @example
 * const summary = await sweepIdleContexts({ store, memory, clock }, { cursor: previous.cursor });
 */
export async function sweepIdleContexts(
  deps: IdleSweepDeps,
  options: IdleSweepOptions = {},
): Promise<IdleSweepSummary> {
  const cutoff = new Date(deps.clock.now().getTime() - IDLE_COMPRESSION_MS).toISOString();
  const drops = await dropMarkedGenerations(
    { ...deps, memory: deps.memory.generations },
    { shouldStop: options.shouldStop },
  );
  const unlisted = await collectUnlistedSnapshots(deps, { shouldStop: options.shouldStop });
  const summary: IdleSweepSummary = {
    projects: 0,
    contexts_compressed: 0,
    projects_released: 0,
    generations_discarded: drops.discarded,
    snapshots_collected: unlisted.collected,
    failures: [...drops.failures, ...unlisted.failures],
  };
  const { cursor } = await visitIndexUpTo(
    deps.store,
    { partition: GSI1PK.idleMemory, upTo: cutoff },
    {
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      max: options.maxProjects ?? DEFAULT_MAX_PROJECTS,
      cursor: options.cursor,
      shouldStop: options.shouldStop,
    },
    async (item) => {
      const projectId = projectOfPartition(item.pk);
      summary.projects += 1;
      try {
        const visit = await sweepProject(deps, projectId, cutoff);
        summary.contexts_compressed += visit.compressed;
        if (visit.released) summary.projects_released += 1;
      } catch (error) {
        summary.failures.push({ project_id: projectId, error: String(error) });
      }
    },
  );
  return cursor === undefined ? summary : { ...summary, cursor };
}

/** One project: its idle contexts compressed, or, with none left, the project out of the index. */
async function sweepProject(
  deps: IdleSweepDeps,
  projectId: string,
  cutoff: string,
): Promise<{ compressed: number; released: boolean }> {
  // Consistent, unlike the index: a write since the index was read means the project is not idle.
  const pointer = await deps.memory.generations.pointer(projectId);
  if (pointer.updated_at > cutoff) return { compressed: 0, released: false };
  const branches = await deps.memory.branchesWithRows(projectId, pointer.generation);
  if (branches.length === 0) {
    return { compressed: 0, released: await deps.memory.generations.leaveIdleIndex(projectId, pointer) };
  }
  let compressed = 0;
  for (const branchId of branches) {
    if (await deps.memory.compressIfIdle(projectId, branchId)) compressed += 1;
  }
  return { compressed, released: false };
}
