import type { BlobStore, RandomSource } from '../../ports/index.js';

/**
 * Large bodies go to the blob store, not the table: a row keeps a reference (key, SHA-256, size)
 * and reads check the hash. Rows stay small, so listing a branch reads kilobytes rather than
 * every body, and no item nears DynamoDB's 400 KB limit.
 */

/** Bodies longer than this (UTF-8 bytes) are stored as blobs. */
export const BODY_THRESHOLD_BYTES = 8 * 1024;

/** The row attributes that may hold a large body. */
const BODY_FIELDS = ['content', 'body_gz'] as const;

export interface BlobRef {
  key: string;
  sha256: string;
  size: number;
}

type Row = Record<string, unknown>;

const encoder = new TextEncoder();

/**
 * The row with each body over the threshold written to a new blob and replaced by a reference
 * in `blobs`; answers the keys written (for cleanup when the row write then fails).
 */
export async function offloadBodies(
  deps: { blobs: BlobStore; random: RandomSource },
  projectId: string,
  row: Row,
): Promise<{ row: Row; written: string[] }> {
  const next: Row = { ...row };
  const refs: Record<string, BlobRef> = {};
  for (const field of BODY_FIELDS) {
    const value = next[field];
    if (typeof value !== 'string') continue;
    const bytes = encoder.encode(value);
    if (bytes.byteLength <= BODY_THRESHOLD_BYTES) continue;
    // A new key per write: blobs are create-only, and a replaced body keeps its old blob until
    // the row that points at it is gone.
    const key = `projects/${projectId}/memory/${deps.random.uuid()}`;
    const written = await deps.blobs.put(key, bytes);
    refs[field] = { key, sha256: written.sha256, size: written.size };
    delete next[field];
  }
  if (Object.keys(refs).length === 0) return { row: next, written: [] };
  next.blobs = refs;
  return { row: next, written: Object.values(refs).map((ref) => ref.key) };
}

/**
 * The row with every referenced body read back (hash checked) beside its reference: `blobs`
 * stays, so a caller replacing the row knows which blobs the old one held.
 */
export async function inlineBodies(blobs: BlobStore, row: Row): Promise<Row> {
  const refs = row.blobs as Record<string, BlobRef> | undefined;
  if (!refs) return row;
  const next: Row = { ...row };
  for (const [field, ref] of Object.entries(refs)) {
    const bytes = await blobs.get(ref.key, { expectedSha256: ref.sha256 });
    next[field] = new TextDecoder().decode(bytes);
  }
  return next;
}

/** The blob keys a stored row references. */
export function blobKeysOf(row: Row): string[] {
  const refs = row.blobs as Record<string, BlobRef> | undefined;
  return refs ? Object.values(refs).map((ref) => ref.key) : [];
}
