import { canonicalJson } from '../../canonical-json.js';
import { sameJsonValue } from '../../same-json.js';
import { MEMORY_RECORD } from '../../storage/key-prefixes.js';
import type { MemoryRecord } from '../store/memory-records.js';
import type { SnapshotItem } from './snapshot-manifest.js';

/**
 * How the store's records travel inside a snapshot: one item per record, its kind named by the
 * record key's prefix (`BR#` a branch, `CTX#` a context…). Records arrive with their large bodies
 * inlined (MemoryStateStore.exportState), so the items alone are the whole state and the
 * manifest's hash of each covers its body too.
 */

const KIND_BY_PREFIX: readonly [string, string][] = [
  [MEMORY_RECORD.branchPrefix, 'branch'],
  [MEMORY_RECORD.contextPrefix, 'context'],
  [MEMORY_RECORD.entryPrefix, 'entry'],
  [MEMORY_RECORD.filePrefix, 'file'],
  [MEMORY_RECORD.gitLinkPrefix, 'git_link'],
];

export function toSnapshotItem(record: MemoryRecord): SnapshotItem {
  const kind = KIND_BY_PREFIX.find(([prefix]) => record.key.startsWith(prefix))?.[1] ?? 'record';
  return { id: record.key, kind, data: record.body as SnapshotItem['data'] };
}

export function toMemoryRecord(item: SnapshotItem): MemoryRecord {
  return { key: item.id, body: item.data };
}

/** How many of the items are of `kind` (restored_branches, restored_contexts). */
export function countKind(items: readonly SnapshotItem[], kind: 'branch' | 'context'): number {
  return items.filter((item) => item.kind === kind).length;
}

/**
 * Whether `records` are exactly a verified snapshot's items: the same ids, and each record's
 * canonical text (under the kind the snapshot gave it) equal to the item's, so each record hashes
 * to the SHA-256 the manifest lists for it. Shown by walking both values when they are the same
 * JSON value (which has the same canonical text); only what the walk cannot show equal (a
 * mismatch, or a value JSON does not hold) has both canonical texts built and compared. What a restore
 * checks the state it activated against.
 */
export function recordsMatchSnapshot(
  records: readonly MemoryRecord[],
  snapshot: { items: readonly SnapshotItem[] },
): boolean {
  const { items } = snapshot;
  if (records.length !== items.length) return false;
  // Records usually read back in the snapshot's order; the index by id is built only if not.
  let byId: Map<string, number> | undefined;
  return records.every((record, i) => {
    let index: number | undefined = i;
    if (items[i]?.id !== record.key) {
      byId ??= new Map(items.map((item, at) => [item.id, at]));
      index = byId.get(record.key);
    }
    const item = index === undefined ? undefined : items[index];
    if (item === undefined) return false;
    // Same id and kind, so equal item texts are equal canonical texts of the data.
    return sameJsonValue(record.body, item.data) || canonicalJson(record.body) === canonicalJson(item.data);
  });
}
