import { canonicalJson } from '../../canonical-json.js';
import { sha256Hex } from '../../ports/index.js';
import type { MemoryRecord } from '../store/memory-records.js';

/**
 * One SHA-256 over a set of records, whatever order they come in: two states with the same
 * fingerprint hold the same records. Restore checks the state it activated with it, and cloud
 * sync tells "changed since the last sync" by it.
 */
export function memoryFingerprint(records: readonly MemoryRecord[]): string {
  const sorted = [...records].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return sha256Hex(canonicalJson(sorted.map((r) => [r.key, r.body])));
}
