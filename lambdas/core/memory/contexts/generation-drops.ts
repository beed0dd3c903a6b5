import { type Clock, ConditionFailedError, type DocumentStore, type StoredItem } from '../../ports/index.js';
import { GSI1PK } from '../../storage/key-prefixes.js';
import { visitIndexUpTo } from '../../storage/visit-index.js';
import { dropMarkerKey, generationOfDropMarker, projectOfPartition } from '../store/memory-keys.js';

/**
 * Memory generations nobody will read again are deleted by the scheduled sweep, not by the
 * restore that left them: at 5,000 entries on dynalite the deletes took half a second, as long as
 * staging the new generation, and nothing reads those rows while they wait.
 *
 * Before a restore writes any row of a new generation, it marks two generations to be dropped
 * after {@link DROP_GRACE_MS}: the one it stages (if its process dies, or the switch never comes,
 * the rows are still found) and the current one (which the switch will replace). When the grace
 * has passed, the sweep drops each marked generation that is not current then, and clears the
 * marker. Marking the current generation early is safe for that reason: if the restore failed and
 * it is still current, only the marker goes. A generation is never made current again once
 * replaced, except by its own restore's rollback, which comes within that restore; the grace
 * also covers a restore still staging, which takes minutes at most (a Lambda stops at 15).
 */

/** How long after a restore began its generations wait before the sweep may drop them. */
export const DROP_GRACE_MS = 60 * 60_000;

/** Generations dropped in one sweep run at most (each may hold thousands of rows); the rest wait. */
const DEFAULT_MAX_GENERATIONS = 100;
const PAGE_SIZE = 25;

/** What the sweep needs of the memory: the current generation, and deleting another one. */
export interface GenerationDropper {
  pointer(projectId: string): Promise<{ generation: string }>;
  /** Refuses (CONFLICT) to delete the current generation. */
  discardGeneration(projectId: string, generation: string): Promise<void>;
}

export interface GenerationDropDeps {
  store: DocumentStore;
  memory: GenerationDropper;
  clock: Clock;
}

export interface GenerationDropSummary {
  /** Generations deleted: replaced by a restore, or staged by one that never switched to them. */
  discarded: number;
  /** Markers whose generation failed to drop; they stay for the next run. */
  failures: { project_id: string; error: string }[];
}

/**
 * Marks `generations` of a project to be dropped unless current once the grace has passed (one
 * batch write). A marker written again moves its instant later.
 *
 * @example
 * await markForDrop(store, clock, 'prj_1', [stagedGeneration, currentGeneration]);
 */
export async function markForDrop(
  store: DocumentStore,
  clock: Clock,
  projectId: string,
  generations: readonly string[],
): Promise<void> {
  const dropAfter = new Date(clock.now().getTime() + DROP_GRACE_MS).toISOString();
  await store.batchPut(
    [...new Set(generations)].map((generation) => ({
      ...dropMarkerKey(projectId, generation),
      gsi1pk: GSI1PK.generationsToDrop,
      gsi1sk: dropAfter,
    })),
  );
}

/**
 * Drops every marked generation whose grace has passed and that is not current, and clears the
 * markers; idempotent and bounded (`maxGenerations` a run, `shouldStop` asked before each page).
 *
 * @example
 * const { discarded } = await dropMarkedGenerations({ store, memory, clock });
 */
export async function dropMarkedGenerations(
  deps: GenerationDropDeps,
  options: { maxGenerations?: number; shouldStop?: (() => boolean) | undefined } = {},
): Promise<GenerationDropSummary> {
  const summary: GenerationDropSummary = { discarded: 0, failures: [] };
  await visitIndexUpTo(
    deps.store,
    { partition: GSI1PK.generationsToDrop, upTo: deps.clock.now().toISOString() },
    {
      pageSize: PAGE_SIZE,
      max: options.maxGenerations ?? DEFAULT_MAX_GENERATIONS,
      shouldStop: options.shouldStop,
    },
    async (marker) => {
      const projectId = projectOfPartition(marker.pk);
      try {
        if (await dropUnlessCurrent(deps, projectId, generationOfDropMarker(marker.sk))) {
          summary.discarded += 1;
        }
        await clearMarker(deps.store, marker);
      } catch (error) {
        summary.failures.push({ project_id: projectId, error: String(error) });
      }
    },
  );
  return summary;
}

async function dropUnlessCurrent(
  deps: GenerationDropDeps,
  projectId: string,
  generation: string,
): Promise<boolean> {
  if ((await deps.memory.pointer(projectId)).generation === generation) return false;
  await deps.memory.discardGeneration(projectId, generation);
  return true;
}

/** Removes a marker as read: one a newer restore wrote again since (a later instant) stays. */
async function clearMarker(store: DocumentStore, marker: StoredItem): Promise<void> {
  try {
    await store.delete(
      { pk: marker.pk, sk: marker.sk },
      { condition: { op: 'eq', attribute: 'gsi1sk', value: marker.gsi1sk ?? '' } },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
