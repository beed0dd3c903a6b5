import type { MemoryRecord } from '../memory-records.js';
import type { SnapshotItem } from '../snapshot-manifest.js';

/**
 * How the store's records travel inside a snapshot. Records are opaque here, with two
 * conventions the memory store keeps: a body's top-level `kind` (`branch`, `context`, `entry`…)
 * names what it is, and a top-level `blob_key` names the blob holding its large body, which the
 * snapshot then carries too.
 */

type Body = Record<string, unknown>;
const asBody = (body: unknown): Body | undefined =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : undefined;

export function toSnapshotItem(record: MemoryRecord): SnapshotItem {
  const kind = asBody(record.body)?.kind;
  return {
    id: record.key,
    kind: typeof kind === 'string' && kind !== '' ? kind : 'record',
    data: record.body as SnapshotItem['data'],
  };
}

export function toMemoryRecord(item: SnapshotItem): MemoryRecord {
  return { key: item.id, body: item.data };
}

/** The blob keys the records reference, each once. */
export function referencedBlobKeys(records: readonly MemoryRecord[]): string[] {
  const keys = new Set<string>();
  for (const record of records) {
    const key = asBody(record.body)?.blob_key;
    if (typeof key === 'string') keys.add(key);
  }
  return [...keys].sort();
}

/** How many of the items are of `kind` (restored_branches, restored_contexts). */
export function countKind(items: readonly SnapshotItem[], kind: string): number {
  return items.filter((item) => item.kind === kind).length;
}
