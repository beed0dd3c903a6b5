import type { Clock, DocumentStore } from '../ports/index.js';
import { GSI1PK } from '../storage/key-prefixes.js';
import { IDLE_COMPRESSION_MS } from './context-compression.js';
import { generationStagedAt } from './memory-generations.js';
import { projectOfPartition } from './memory-keys.js';
import type { MemoryStore } from './memory-store.js';

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
 * The same visit drops the generations a restore replaced (restore_snapshot and sync_from_cloud
 * leave them, so that a restore does not wait for thousands of deletes) and those a restore
 * staged and never activated because its process died. A visit comes 30 minutes after the
 * project's last write at the earliest, long after a restore's rollback could need the generation
 * it replaced, and a generation staged less than {@link STAGING_GRACE_MS} ago is left alone, as a
 * restore may be staging it now; the project stays in the index until it is gone.
 */

export interface IdleSweepDeps {
  store: DocumentStore;
  memory: MemoryStore;
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
  /** Projects that left the index: nothing of theirs was left to compress or drop. */
  projects_released: number;
  /** Generations dropped: replaced by a restore, or staged by one that never finished. */
  generations_discarded: number;
  /** Projects whose visit failed; the index keeps them for the next run. */
  failures: { project_id: string; error: string }[];
  /** Present when the run stopped before the end of the index: pass it to the next run. */
  cursor?: string;
}

/**
 * How old a generation that is not current must be before the sweep drops it: a restore stages
 * for far less (a Lambda stops at 15 minutes), with room for clocks that disagree.
 */
export const STAGING_GRACE_MS = 60 * 60_000;

const DEFAULT_PAGE_SIZE = 25;
const DEFAULT_MAX_PROJECTS = 500;
/** Below every ISO 8601 instant: the index's sort key is the pointer's `updated_at`. */
const OLDEST = '0';

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
  const summary: IdleSweepSummary = {
    projects: 0,
    contexts_compressed: 0,
    projects_released: 0,
    generations_discarded: 0,
    failures: [],
  };
  const maxProjects = options.maxProjects ?? DEFAULT_MAX_PROJECTS;
  let cursor = options.cursor;
  do {
    if (options.shouldStop?.() || summary.projects >= maxProjects) break;
    const page = await deps.store.query({
      index: 'gsi1',
      partition: GSI1PK.idleMemory,
      between: { from: OLDEST, to: cutoff },
      limit: Math.min(options.pageSize ?? DEFAULT_PAGE_SIZE, maxProjects - summary.projects),
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const item of page.items) {
      const projectId = projectOfPartition(item.pk);
      summary.projects += 1;
      try {
        const visit = await sweepProject(deps, projectId, cutoff);
        summary.contexts_compressed += visit.compressed;
        summary.generations_discarded += visit.discarded;
        if (visit.released) summary.projects_released += 1;
      } catch (error) {
        summary.failures.push({ project_id: projectId, error: String(error) });
      }
    }
    cursor = page.cursor;
  } while (cursor !== undefined);
  return cursor === undefined ? summary : { ...summary, cursor };
}

/**
 * One project: the generations no restore needs any more dropped, its idle contexts compressed,
 * or, with nothing left of either, the project out of the index.
 */
async function sweepProject(
  deps: IdleSweepDeps,
  projectId: string,
  cutoff: string,
): Promise<{ compressed: number; discarded: number; released: boolean }> {
  // Consistent, unlike the index: a write since the index was read means the project is not idle.
  const pointer = await deps.memory.pointer(projectId);
  if (pointer.updated_at > cutoff) return { compressed: 0, discarded: 0, released: false };
  const generations = await dropReplacedGenerations(deps, projectId, pointer.generation);
  const branches = await deps.memory.branchesWithRows(projectId, pointer.generation);
  if (branches.length === 0 && generations.kept === 0) {
    const released = await deps.memory.leaveIdleIndex(projectId, pointer);
    return { compressed: 0, discarded: generations.discarded, released };
  }
  let compressed = 0;
  for (const branchId of branches) {
    if (await deps.memory.compressIfIdle(projectId, branchId)) compressed += 1;
  }
  return { compressed, discarded: generations.discarded, released: false };
}

/**
 * Discards every generation but `current` staged before the grace period; answers how many it
 * discarded and how many it kept for a later visit. An id not in the time-ordered form is of an
 * unknown age: never dropped, and not waited for either.
 */
async function dropReplacedGenerations(
  deps: IdleSweepDeps,
  projectId: string,
  current: string,
): Promise<{ discarded: number; kept: number }> {
  const stagedBefore = deps.clock.now().getTime() - STAGING_GRACE_MS;
  let discarded = 0;
  let kept = 0;
  for (const generation of await deps.memory.otherGenerations(projectId, current)) {
    const stagedAt = generationStagedAt(generation);
    if (stagedAt === undefined) continue;
    if (stagedAt >= stagedBefore) {
      kept += 1;
      continue;
    }
    // Refuses (CONFLICT) if a restore made it current since the pointer was read: a failed visit.
    await deps.memory.discardGeneration(projectId, generation);
    discarded += 1;
  }
  return { discarded, kept };
}
