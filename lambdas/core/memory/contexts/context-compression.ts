import { mapWithConcurrency } from '../../concurrency.js';
import type { BlobStore, Clock } from '../../ports/index.js';
import { type Compressor, type Condition, ConditionFailedError } from '../../ports/index.js';
import { contextRecord, entryRecord } from '../store/memory-keys.js';
import { ContextState } from '../store/memory-schemas.js';
import type { MemoryStore } from '../store/memory-store.js';
import { packEntries, summarize } from './context-body.js';

/**
 * Idle contexts: compressed after {@link IDLE_COMPRESSION_MS} without a new entry (summary kept,
 * entries gzipped into one body, their rows deleted), restored by load_context. Both order their
 * writes so a crash leaves every entry readable (see docs/adr/0009).
 */

/** A context with no new entry for this long is compressed. */
export const IDLE_COMPRESSION_MS = 30 * 60 * 1000;

export interface ContextDeps {
  clock: Clock;
  compressor: Compressor;
  blobs: BlobStore;
}

/**
 * Entry rows deleted (compressing) or put back (load_context) at once. Each write is conditional
 * on that entry alone, which no batch write can carry, so they go one request each: one after
 * another, a context of 200 entries cost load_context 200 round trips in a row.
 */
const ENTRY_WRITES_AT_ONCE = 16;

const versionIs = (version: number): Condition => ({ op: 'eq', attribute: 'version', value: version });

/**
 * Compresses the branch's context if no entry was written for {@link IDLE_COMPRESSION_MS}: the
 * entries (with any compressed earlier) become one gzipped body beside a summary, then their
 * rows are deleted. A crash in between leaves entries in both places; readers merge them.
 */
export async function compressIfIdle(
  store: MemoryStore,
  deps: ContextDeps,
  projectId: string,
  branchId: string,
): Promise<boolean> {
  const view = await store.branchView(projectId, branchId);
  const idleFor = deps.clock.now().getTime() - Date.parse(view.last_updated);
  if (view.rows.length === 0 || idleFor < IDLE_COMPRESSION_MS) return false;
  const previous = view.context;
  const compressed = ContextState.parse({
    branch_id: branchId,
    compressed: true,
    summary: summarize(view.branch.topic, view.entries),
    body_gz: await packEntries(deps.compressor, view.entries),
    entry_ids: view.entries.map((e) => e.entry_id),
    message_count: view.entries.length,
    compressed_at: deps.clock.now().toISOString(),
    version: (previous?.version ?? 0) + 1,
  });
  try {
    await store.generations.putRecord(
      projectId,
      view.generation,
      contextRecord(branchId),
      compressed,
      previous ? versionIs(previous.version) : { op: 'not_exists' },
    );
  } catch (error) {
    if (error instanceof ConditionFailedError) return false; // another process compressed it first
    throw error;
  }
  await Promise.all(view.contextBlobs.map((key) => deps.blobs.delete(key)));
  await mapWithConcurrency(view.rows, ENTRY_WRITES_AT_ONCE, (entry) =>
    // Conditional on the version packed: an entry replaced meanwhile keeps its newer row.
    store.generations
      .deleteRecord(projectId, view.generation, entryRecord(branchId, entry.entry_id), {
        op: 'and',
        conditions: [{ op: 'exists' }, versionIs(entry.version)],
      })
      .catch((error: unknown) => {
        if (!(error instanceof ConditionFailedError)) throw error;
      }),
  );
  await store.generations.touch(projectId, view.generation);
  return true;
}

/**
 * Brings a compressed context back: its entries become rows again and the context is active.
 * Answers false when it was not compressed.
 */
export async function restoreContext(
  store: MemoryStore,
  deps: ContextDeps,
  projectId: string,
  branchId: string,
): Promise<boolean> {
  const view = await store.branchView(projectId, branchId);
  const context = view.context;
  if (!context?.compressed) return false;
  await mapWithConcurrency(view.entries, ENTRY_WRITES_AT_ONCE, (entry) =>
    store.generations
      .putRecord(projectId, view.generation, entryRecord(branchId, entry.entry_id), entry, {
        op: 'not_exists',
      })
      .catch((error: unknown) => {
        if (!(error instanceof ConditionFailedError)) throw error; // a newer row is already there
      }),
  );
  const restored = ContextState.parse({
    branch_id: branchId,
    compressed: false,
    ...(context.summary === undefined ? {} : { summary: context.summary }),
    entry_ids: [],
    message_count: view.entries.length,
    restored_at: deps.clock.now().toISOString(),
    version: context.version + 1,
  });
  try {
    await store.generations.putRecord(
      projectId,
      view.generation,
      contextRecord(branchId),
      restored,
      versionIs(context.version),
    );
  } catch (error) {
    if (error instanceof ConditionFailedError) return true; // restored by another call meanwhile
    throw error;
  }
  await Promise.all(view.contextBlobs.map((key) => deps.blobs.delete(key)));
  await store.generations.touch(projectId, view.generation);
  return true;
}
