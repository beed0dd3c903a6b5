import { sha256Hex } from '../../ports/index.js';
import { MEMORY_RECORD } from '../../storage/key-prefixes.js';
import type { MemoryRecord } from '../store/memory-records.js';
import { itemText, type ManifestBody, type SnapshotItem } from './snapshot-manifest.js';

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
 * Whether `records` are exactly the items a manifest lists: the same ids, each record hashing to
 * its item's recorded SHA-256 (under the kind the manifest gave it). What a restore checks the
 * state it activated against.
 */
export function recordsMatchManifest(
  records: readonly MemoryRecord[],
  listed: ManifestBody['items'],
): boolean {
  if (records.length !== listed.length) return false;
  const byId = new Map(listed.map((item) => [item.id, item]));
  return records.every((record) => {
    const item = byId.get(record.key);
    return item !== undefined && sha256Hex(itemText(record.key, item.kind, record.body)) === item.sha256;
  });
}
