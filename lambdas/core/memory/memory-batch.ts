import type { Principal } from '../access/rights.js';
import type { CallWork } from '../call-work.js';
import { isWorkStop } from '../call-work.js';
import { isDomainError } from '../errors.js';
import type { MemoryService } from './memory-service.js';
import type { Entry, EntryRole } from './store/memory-schemas.js';

/** The most entries one update_memory call takes: 15 decisions in one call, not 15 calls (issue 22). */
export const MAX_MEMORY_BATCH = 50;

const NARROW_BATCH = `Send fewer entries per call (at most ${MAX_MEMORY_BATCH}).`;

/** One entry of a batch: appended, or with `entry_id` a replacement. */
export interface BatchEntry {
  content: string;
  role: EntryRole;
  entry_id?: string | undefined;
  if_version?: number | undefined;
}

/** What became of one entry of a batch, in the order given. */
export type BatchEntryResult =
  | { index: number; stored: true; entry: Entry; redacted: number }
  | { index: number; stored: false; error: { code: string; message: string } };

/**
 * Writes a batch of entries to one branch, in order. What can be known before writing is checked
 * for the whole batch first — the call's work allowance (one item per entry), the caller's write
 * grant, the project, the branch, room for every append — so a batch refused for any of those
 * wrote nothing (a key with no grant learns nothing and stores nothing). After that each entry
 * stands alone: a replacement that names no entry or lost a race is refused with its code while
 * the others land. A call stopped midway (its deadline, a cancel) or a store failing after some
 * entries landed reports each entry it did not write, so no batch is half-written in silence.
 *
 * @example
 * const results = await updateMemoryBatch(memory, principal, projectId, { branch_id, entries }, work);
 * results.filter((r) => !r.stored); // each refused entry with its code and reason
 */
export async function updateMemoryBatch(
  memory: MemoryService,
  principal: Principal,
  projectId: string,
  input: { branch_id: string; entries: readonly BatchEntry[] },
  work?: CallWork,
): Promise<BatchEntryResult[]> {
  work?.spend(input.entries.length, NARROW_BATCH);
  await memory.authorize(principal, projectId, 'write');
  await memory.memory.requireBranch(projectId, input.branch_id);
  const appends = input.entries.filter((e) => e.entry_id === undefined).length;
  await memory.memory.requireRoomForEntries(projectId, appends);
  const results: BatchEntryResult[] = [];
  for (const [index, entry] of input.entries.entries()) {
    try {
      await work?.pass();
      const { entry: stored, redacted } = await memory.updateMemory(principal, projectId, {
        branch_id: input.branch_id,
        ...entry,
      });
      results.push({ index, stored: true, entry: stored, redacted });
    } catch (error) {
      // Nothing written yet: the call fails as a single write would.
      if (results.every((r) => !r.stored) && (isWorkStop(error) || !isDomainError(error))) throw error;
      if (isDomainError(error) && !isWorkStop(error)) {
        results.push({ index, stored: false, error: { code: error.code, message: error.message } });
        continue;
      }
      // The call is over (stopped, or the store failed): the rest is reported, not dropped.
      const stop = isDomainError(error)
        ? { code: error.code, message: `Not written: ${error.message}` }
        : {
            code: 'STORAGE_ERROR',
            message: 'Not written: the store failed partway through the batch. Send this entry again.',
          };
      for (let rest = index; rest < input.entries.length; rest += 1)
        results.push({ index: rest, stored: false, error: stop });
      break;
    }
  }
  return results;
}
