import type { Compressor } from '../../ports/index.js';
import { MEMORY_RECORD } from '../../storage/key-prefixes.js';
import { mergeEntries, unpackEntries } from '../contexts/context-body.js';
import { entryRecord } from '../store/memory-keys.js';
import type { MemoryRecord } from '../store/memory-records.js';
import { ContextState, Entry } from '../store/memory-schemas.js';
import { memoryFingerprint } from './memory-fingerprint.js';

/**
 * What cloud sync compares to tell "changed since the last sync": the memory as an agent reads
 * it, not as it is stored. Compressing an idle context (the scheduled sweep, or a read) and
 * load_context bringing it back rewrite records without changing one word of memory, so they
 * must not turn the next pull into CONFLICT. Each branch's entries count once, whether they are
 * rows or packed in its context (merged as readers merge them); the context records themselves —
 * compression state, the derived summary, timestamps — are left out.
 *
 * @example
 * await contentFingerprint(records, nodeGzip) === await contentFingerprint(afterCompression, nodeGzip); // true
 */
export async function contentFingerprint(
  records: readonly MemoryRecord[],
  compressor: Compressor,
): Promise<string> {
  const kept: MemoryRecord[] = [];
  const entriesOf = new Map<string, Entry[][]>();
  const addEntries = (branchId: string, entries: Entry[]) =>
    entriesOf.set(branchId, [...(entriesOf.get(branchId) ?? []), entries]);
  for (const record of records) {
    // A record of another shape under these prefixes is compared as stored, like any other.
    const context = record.key.startsWith(MEMORY_RECORD.contextPrefix)
      ? ContextState.safeParse(record.body)
      : undefined;
    const entry = record.key.startsWith(MEMORY_RECORD.entryPrefix) ? Entry.safeParse(record.body) : undefined;
    if (context?.success) {
      if (context.data.body_gz !== undefined) {
        addEntries(context.data.branch_id, await unpackEntries(compressor, context.data.body_gz));
      }
    } else if (entry?.success) {
      addEntries(entry.data.branch_id, [entry.data]);
    } else {
      kept.push(record);
    }
  }
  for (const [branchId, lists] of entriesOf) {
    for (const entry of mergeEntries(...lists))
      kept.push({ key: entryRecord(branchId, entry.entry_id), body: entry });
  }
  return memoryFingerprint(kept);
}
