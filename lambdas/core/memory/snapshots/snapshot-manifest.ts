import * as z from 'zod';
import { canonicalJson } from '../../canonical-json.js';
import { sha256Hex } from '../../ports/index.js';

/**
 * The plaintext of a project-memory snapshot: an archive (every item and every blob's bytes) and
 * a manifest that lists every item's and blob's SHA-256, the archive's, and the previous
 * manifest's, so snapshots form a hash chain. Both are canonical JSON; both are encrypted before
 * they are stored (snapshot-vault.ts). {@link verifySnapshot} detects any change to either, down
 * to a single flipped bit, before anything is restored from them.
 */

export const SNAPSHOT_FORMAT = 'meridian-snapshot/1';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lower-case hex SHA-256');

/** One memory record (an entry, a branch, a context…) as the snapshot carries it. */
export const SnapshotItem = z.strictObject({
  id: z.string().min(1),
  kind: z.string().min(1),
  // Not z.json(): its recursive check costs more than the rest of a 10,000-item snapshot. Data
  // read back came out of JSON.parse, and data written goes through canonicalJson, which refuses
  // anything JSON cannot hold.
  data: z.custom<z.core.util.JSONType>((value) => value !== undefined, 'a JSON value'),
});
export type SnapshotItem = z.infer<typeof SnapshotItem>;

const ArchiveBlob = z.strictObject({ key: z.string().min(1), sha256: Sha256, content_base64: z.base64() });

export const SnapshotArchive = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  project_id: z.string().min(1),
  snapshot_id: z.string().min(1),
  items: z.array(SnapshotItem),
  blobs: z.array(ArchiveBlob),
});
export type SnapshotArchive = z.infer<typeof SnapshotArchive>;

export const ManifestBody = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  project_id: z.string().min(1),
  snapshot_id: z.string().min(1),
  created_at: z.iso.datetime({ offset: true }),
  description: z.string().optional(),
  /** The SHA-256 of the previous snapshot's manifest bytes; null for a project's first snapshot. */
  previous_manifest_sha256: Sha256.nullable(),
  archive: z.strictObject({ sha256: Sha256, size: z.number().int().nonnegative() }),
  items: z.array(z.strictObject({ id: z.string().min(1), kind: z.string().min(1), sha256: Sha256 })),
  blobs: z.array(
    z.strictObject({ key: z.string().min(1), sha256: Sha256, size: z.number().int().nonnegative() }),
  ),
});
export type ManifestBody = z.infer<typeof ManifestBody>;

/** The body and its own hash: a manifest read without its archive can still be checked alone. */
export const SnapshotManifest = z.strictObject({ body: ManifestBody, body_sha256: Sha256 });
export type SnapshotManifest = z.infer<typeof SnapshotManifest>;

export interface SnapshotBlobInput {
  key: string;
  bytes: Uint8Array;
}

export interface SnapshotInput {
  projectId: string;
  snapshotId: string;
  /** RFC 3339 instant, from the injected clock. */
  createdAt: string;
  description?: string;
  previousManifestSha256: string | null;
  items: readonly SnapshotItem[];
  blobs: readonly SnapshotBlobInput[];
}

export interface BuiltSnapshot {
  manifest: SnapshotManifest;
  manifestBytes: Uint8Array;
  archiveBytes: Uint8Array;
  /** SHA-256 of `manifestBytes`: what the next snapshot records as its previous manifest. */
  manifestSha256: string;
}

export interface VerifiedSnapshot {
  manifest: SnapshotManifest;
  manifestSha256: string;
  items: SnapshotItem[];
  blobs: { key: string; sha256: string; bytes: Uint8Array }[];
}

export type SnapshotIntegrityReason =
  | 'MANIFEST_UNREADABLE'
  | 'MANIFEST_CHANGED'
  | 'MANIFEST_NOT_EXPECTED'
  | 'WRONG_SNAPSHOT'
  | 'ARCHIVE_CHANGED'
  | 'ARCHIVE_UNREADABLE'
  | 'CONTENT_MISMATCH'
  | 'DECRYPTION_FAILED'
  /** Authentic (it decrypted) but in a form this version does not read: a newer Meridian wrote it. */
  | 'FORMAT_UNSUPPORTED';

/** The snapshot is damaged, tampered with, or not the one asked for: nothing may be restored from it. */
export class SnapshotIntegrityError extends Error {
  override readonly name = 'SnapshotIntegrityError';

  constructor(
    readonly reason: SnapshotIntegrityReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const encoder = new TextEncoder();
/**
 * An item's canonical JSON, the text its SHA-256 in a manifest is over: the same as `canonicalJson(item)` (its
 * keys sort `data`, `id`, `kind`), written around the data's own canonical text so that only
 * the data is walked and sorted, not a copy of the whole item. Tens of thousands per snapshot.
 */
export function itemText(id: string, kind: string, data: unknown): string {
  return `{"data":${canonicalJson(data)},"id":${JSON.stringify(id)},"kind":${JSON.stringify(kind)}}`;
}

/**
 * What SnapshotItem accepts (exactly `id`, `kind` and `data`; non-empty strings; data present),
 * checked by hand: zod spends more on 10,000 items than on everything else it checks in a
 * snapshot. Anything this refuses goes to the schema, so refusals and their errors are zod's.
 */
function looksLikeItem(value: unknown): value is SnapshotItem {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) {
    return false;
  }
  const item = value as Record<string, unknown>;
  let keys = 0;
  for (const _ in item) keys += 1;
  return (
    keys === 3 &&
    typeof item.id === 'string' &&
    item.id.length > 0 &&
    typeof item.kind === 'string' &&
    item.kind.length > 0 &&
    Object.hasOwn(item, 'data') &&
    item.data !== undefined
  );
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** What a manifest's item entry schema accepts (exactly `id`, `kind`, `sha256`), by hand as above. */
function looksLikeItemEntry(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) {
    return false;
  }
  const entry = value as Record<string, unknown>;
  let keys = 0;
  for (const _ in entry) keys += 1;
  return (
    keys === 3 &&
    typeof entry.id === 'string' &&
    entry.id.length > 0 &&
    typeof entry.kind === 'string' &&
    entry.kind.length > 0 &&
    typeof entry.sha256 === 'string' &&
    SHA256_HEX.test(entry.sha256)
  );
}

/** An entry's canonical JSON (keys `id`, `kind`, `sha256`, already in order). */
const entryText = (entry: { id: string; kind: string; sha256: string }) =>
  `{"id":${JSON.stringify(entry.id)},"kind":${JSON.stringify(entry.kind)},"sha256":${JSON.stringify(entry.sha256)}}`;

/** `text` (canonical JSON holding one `"items":[]`) with that empty array replaced by `items`. */
function spliceItems(text: string, items: readonly string[]): string {
  // A function, not a string: a replacement string would read `$&` or `$'` in an item's text.
  return text.replace('"items":[]', () => `"items":[${items.join(',')}]`);
}

/**
 * Serialises a snapshot: the archive, then the manifest that hashes it and everything in it.
 *
 * @example
 * const built = buildSnapshot({ projectId: 'p1', snapshotId: 's1', createdAt, previousManifestSha256: null, items, blobs: [] });
 */
export function buildSnapshot(input: SnapshotInput): BuiltSnapshot {
  const blobs = input.blobs.map((blob) => ({ ...blob, sha256: sha256Hex(blob.bytes) }));
  const archive: SnapshotArchive = {
    format: SNAPSHOT_FORMAT,
    project_id: input.projectId,
    snapshot_id: input.snapshotId,
    items: [...input.items],
    blobs: blobs.map((b) => ({
      key: b.key,
      sha256: b.sha256,
      content_base64: Buffer.from(b.bytes).toString('base64'),
    })),
  };
  // Each item is serialised once: its canonical text is hashed and spliced into the archive,
  // which is the same canonical JSON as serialising the whole archive would give.
  const serialised = archive.items.map((raw) => {
    const item = looksLikeItem(raw) ? raw : SnapshotItem.parse(raw);
    const text = itemText(item.id, item.kind, item.data);
    return { text, entry: { id: item.id, kind: item.kind, sha256: sha256Hex(text) } };
  });
  const archiveBytes = encoder.encode(
    spliceItems(
      canonicalJson({ ...SnapshotArchive.parse({ ...archive, items: [] }), items: [] }),
      serialised.map((s) => s.text),
    ),
  );
  const itemEntries = serialised.map((s) => s.entry);
  // The entries were made just above from parsed items and fresh hashes; the schema checks the rest.
  const body: ManifestBody = {
    ...ManifestBody.parse({
      format: SNAPSHOT_FORMAT,
      project_id: input.projectId,
      snapshot_id: input.snapshotId,
      created_at: input.createdAt,
      ...(input.description === undefined ? {} : { description: input.description }),
      previous_manifest_sha256: input.previousManifestSha256,
      archive: { sha256: sha256Hex(archiveBytes), size: archiveBytes.byteLength },
      items: [],
      blobs: blobs.map((b) => ({ key: b.key, sha256: b.sha256, size: b.bytes.byteLength })),
    }),
    items: itemEntries,
  };
  // Spliced like the archive's items: the entries are already in canonical key order.
  const bodyText = spliceItems(canonicalJson({ ...body, items: [] }), itemEntries.map(entryText));
  const manifest: SnapshotManifest = { body, body_sha256: sha256Hex(bodyText) };
  const manifestBytes = encoder.encode(manifestText(bodyText, manifest.body_sha256));
  return { manifest, manifestBytes, archiveBytes, manifestSha256: sha256Hex(manifestBytes) };
}

/**
 * A manifest's canonical text from its body's: `body` sorts before `body_sha256`, so the body's
 * text is spliced in as is rather than serialised a second time.
 */
function manifestText(bodyText: string, bodySha256: string): string {
  return `${MANIFEST_HEAD}${bodyText}${manifestTail(bodySha256)}`;
}

const MANIFEST_HEAD = '{"body":';
const manifestTail = (bodySha256: string) => `,"body_sha256":${JSON.stringify(bodySha256)}}`;

export interface SnapshotExpectation {
  projectId: string;
  snapshotId: string;
  /** The manifest hash recorded when the snapshot was made, when the caller has it. */
  manifestSha256?: string;
}

/**
 * Checks a manifest and its archive against each other and against what the caller expects, and
 * returns the content only if every hash holds. Throws {@link SnapshotIntegrityError} otherwise.
 *
 * Both inputs must be exactly the canonical bytes that were hashed: a manifest is re-serialised
 * and compared byte for byte, so no edit can hide in whitespace, key order or escapes.
 */
export function verifySnapshot(
  manifestBytes: Uint8Array,
  archiveBytes: Uint8Array,
  expected: SnapshotExpectation,
): VerifiedSnapshot {
  const manifest = readManifest(manifestBytes);
  const manifestSha256 = sha256Hex(manifestBytes);
  const { body } = manifest;
  if (expected.manifestSha256 !== undefined && expected.manifestSha256 !== manifestSha256) {
    throw new SnapshotIntegrityError(
      'MANIFEST_NOT_EXPECTED',
      `The manifest of snapshot ${expected.snapshotId} is not the one recorded when it was made.`,
    );
  }
  if (body.project_id !== expected.projectId || body.snapshot_id !== expected.snapshotId) {
    throw new SnapshotIntegrityError(
      'WRONG_SNAPSHOT',
      `The manifest describes ${body.project_id}/${body.snapshot_id}, not ${expected.projectId}/${expected.snapshotId}.`,
    );
  }
  if (archiveBytes.byteLength !== body.archive.size || sha256Hex(archiveBytes) !== body.archive.sha256) {
    throw new SnapshotIntegrityError(
      'ARCHIVE_CHANGED',
      'The archive does not hash to what its manifest records.',
    );
  }
  const { archive } = readArchive(archiveBytes);
  const blobs = archive.blobs.map((b) => {
    const bytes = new Uint8Array(Buffer.from(b.content_base64, 'base64'));
    return { key: b.key, sha256: sha256Hex(bytes), bytes };
  });
  const listed = {
    // Each item hashed over its own canonical text (itemText), as buildSnapshot hashed it.
    items: archive.items.map((item) => ({
      id: item.id,
      kind: item.kind,
      sha256: sha256Hex(itemText(item.id, item.kind, item.data)),
    })),
    blobs: blobs.map((b) => ({ key: b.key, sha256: b.sha256, size: b.bytes.byteLength })),
  };
  const identityMatches = archive.project_id === body.project_id && archive.snapshot_id === body.snapshot_id;
  if (
    !identityMatches ||
    !sameEntries(listed.items, body.items) ||
    canonicalJson(listed.blobs) !== canonicalJson(body.blobs)
  ) {
    throw new SnapshotIntegrityError(
      'CONTENT_MISMATCH',
      'The archive content does not match the items and blobs its manifest lists.',
    );
  }
  return { manifest, manifestSha256, items: archive.items, blobs };
}

/**
 * Whether a manifest hashes to `manifestSha256`, the hash recorded when its snapshot was
 * catalogued, and the archive to the hash that manifest records. The archive's hash covers every
 * byte of every item, and each item was hashed over exactly those bytes when the snapshot was
 * built, so this checks every hash without parsing the archive or hashing its items again.
 */
export function matchesRecordedHashes(
  manifestBytes: Uint8Array,
  archiveBytes: Uint8Array,
  manifestSha256: string,
): boolean {
  if (sha256Hex(manifestBytes) !== manifestSha256) return false;
  const recorded = archiveRecordOf(manifestBytes);
  return (
    recorded !== undefined &&
    archiveBytes.byteLength === recorded.size &&
    sha256Hex(archiveBytes) === recorded.sha256
  );
}

/**
 * The items of a snapshot the catalog vouches for (its entry says `verified`): one built here,
 * whose item hashes buildSnapshot took over the very texts it wrote, or one pulled from the cloud
 * and checked whole by {@link verifySnapshot} before it was catalogued. Once its parts match the
 * hashes recorded then ({@link matchesRecordedHashes}, checked by the caller), they are those
 * bytes, so the items are not serialised and hashed again: the archive is parsed, its shape
 * checked and its identity compared with the snapshot asked for.
 */
export function openVouchedSnapshot(
  archiveBytes: Uint8Array,
  expected: SnapshotExpectation,
): { items: SnapshotItem[] } {
  const { archive } = readArchive(archiveBytes);
  if (archive.project_id !== expected.projectId || archive.snapshot_id !== expected.snapshotId) {
    throw new SnapshotIntegrityError(
      'WRONG_SNAPSHOT',
      `The archive holds ${archive.project_id}/${archive.snapshot_id}, not ${expected.projectId}/${expected.snapshotId}.`,
    );
  }
  return { items: archive.items };
}

/**
 * How many items a canonical manifest lists, of `kind` or in all: counted in its text rather than
 * by parsing a megabyte of entries. Only for a manifest that hashed to the hash recorded when it
 * was built (canonical, made by buildSnapshot): each entry is written `…,"kind":<kind>,"sha256":…`
 * and a quote inside a JSON string is escaped, so the pattern occurs once per entry and nowhere
 * else.
 */
export function countListed(manifestBytes: Uint8Array, kind?: string): number {
  const text = Buffer.from(manifestBytes.buffer, manifestBytes.byteOffset, manifestBytes.byteLength);
  const pattern = Buffer.from(kind === undefined ? ',"kind":' : `,"kind":${JSON.stringify(kind)},"sha256":`);
  let count = 0;
  for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + pattern.length)) count += 1;
  return count;
}

/** Where a manifest records its archive's hash; the rest of it is not read here. */
const ArchiveRecord = z.object({
  body: z.object({ archive: z.object({ sha256: z.string(), size: z.number() }) }),
});

/**
 * A canonical manifest starts with its archive's record (`archive` sorts first in the body), so
 * it is read from the first bytes rather than by parsing a megabyte of item entries. Only used
 * once the manifest hashed to the hash recorded when it was built (canonical), so the prefix is
 * the record; a manifest in any other form is parsed whole.
 */
const ARCHIVE_RECORD_PREFIX =
  /^\{"body":\{"archive":\{"sha256":"([0-9a-f]{64})","size":(0|[1-9][0-9]{0,15})\},/;

function archiveRecordOf(manifest: Uint8Array): { sha256: string; size: number } | undefined {
  const head = ARCHIVE_RECORD_PREFIX.exec(Buffer.from(manifest.subarray(0, 160)).toString('latin1'));
  if (head?.[1] !== undefined && head[2] !== undefined) return { sha256: head[1], size: Number(head[2]) };
  try {
    const parsed = ArchiveRecord.safeParse(JSON.parse(Buffer.from(manifest).toString('utf8')));
    return parsed.success ? parsed.data.body.archive : undefined;
  } catch {
    return undefined;
  }
}

/** The listed items, in the same order with the same ids, kinds and hashes (no serialising). */
function sameEntries(
  actual: readonly { id: string; kind: string; sha256: string }[],
  recorded: readonly { id: string; kind: string; sha256: string }[],
): boolean {
  return (
    actual.length === recorded.length &&
    actual.every((a, i) => {
      const r = recorded[i];
      return r !== undefined && a.id === r.id && a.kind === r.kind && a.sha256 === r.sha256;
    })
  );
}

function readManifest(bytes: Uint8Array): SnapshotManifest {
  const text = decodeStrict(bytes, 'MANIFEST_UNREADABLE', 'manifest');
  const raw = parseJson(text, 'MANIFEST_UNREADABLE', 'manifest');
  refuseOtherFormat((raw as { body?: { format?: unknown } } | null)?.body?.format);
  const parsed = parseWithItems(SnapshotManifest, raw, 'manifest', looksLikeItemEntry);
  // The text as parsed (JSON.parse keeps its key order) re-serialises to itself only if canonical.
  if (!parsed.success || canonicalJson(raw) !== text) {
    throw new SnapshotIntegrityError(
      'MANIFEST_UNREADABLE',
      'The manifest is not a canonical Meridian snapshot manifest.',
    );
  }
  // Canonical, so exactly head + body + tail: the body's text needs no second serialising.
  const bodyText = text.slice(
    MANIFEST_HEAD.length,
    text.length - manifestTail(parsed.data.body_sha256).length,
  );
  if (sha256Hex(bodyText) !== parsed.data.body_sha256) {
    throw new SnapshotIntegrityError(
      'MANIFEST_CHANGED',
      'The manifest body does not hash to its recorded SHA-256.',
    );
  }
  return parsed.data;
}

/** The archive, parsed and checked against its schema. */
function readArchive(bytes: Uint8Array): { archive: SnapshotArchive } {
  const text = decodeStrict(bytes, 'ARCHIVE_UNREADABLE', 'archive');
  const raw = parseJson(text, 'ARCHIVE_UNREADABLE', 'archive');
  refuseOtherFormat((raw as { format?: unknown } | null)?.format);
  const parsed = parseWithItems(SnapshotArchive, raw, 'archive', looksLikeItem);
  if (!parsed.success) {
    throw new SnapshotIntegrityError('ARCHIVE_UNREADABLE', 'The archive is not a Meridian snapshot archive.');
  }
  return { archive: parsed.data };
}

/**
 * `schema.safeParse(raw)` for an archive (`path` "archive": items at `items`) or a manifest
 * (`path` "manifest": at `body.items`), with that long array checked by `looksRight` instead of
 * by the schema: the rest is parsed with `items: []` and the array put back as is. If anything is
 * off (no such array, an element refused), the whole schema parses `raw`, so what is accepted and
 * what is refused is exactly the schema's.
 */
function parseWithItems<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  path: 'archive' | 'manifest',
  looksRight: (item: unknown) => boolean,
): { success: true; data: T } | { success: false } {
  const holder = path === 'archive' ? raw : (raw as { body?: unknown } | null)?.body;
  const items = isObject(holder) ? holder.items : undefined;
  if (!isObject(raw) || !Array.isArray(items) || !items.every(looksRight)) return schema.safeParse(raw);
  const emptied =
    path === 'archive' ? { ...raw, items: [] } : { ...raw, body: { ...(holder as object), items: [] } };
  const parsed = schema.safeParse(emptied);
  if (!parsed.success) return parsed;
  const data = parsed.data as { items: unknown[]; body: { items: unknown[] } };
  if (path === 'archive') data.items = items;
  else data.body.items = items;
  return parsed;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/**
 * A part naming another `meridian-snapshot/<n>` format was written by another version of
 * Meridian (a newer one: this one reads every older format): refused as FORMAT_UNSUPPORTED, so
 * the answer says to upgrade rather than that the snapshot is damaged.
 */
function refuseOtherFormat(format: unknown): void {
  if (typeof format !== 'string' || format === SNAPSHOT_FORMAT || !format.startsWith(FORMAT_FAMILY)) return;
  throw new SnapshotIntegrityError(
    'FORMAT_UNSUPPORTED',
    `The snapshot is in format ${JSON.stringify(format.slice(0, 40))}, which this version of Meridian does not read (it reads ${SNAPSHOT_FORMAT}).`,
  );
}

const FORMAT_FAMILY = 'meridian-snapshot/';

function decodeStrict(bytes: Uint8Array, reason: SnapshotIntegrityReason, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new SnapshotIntegrityError(reason, `The ${what} is not UTF-8 text.`, { cause });
  }
}

function parseJson(text: string, reason: SnapshotIntegrityReason, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new SnapshotIntegrityError(reason, `The ${what} is not JSON.`, { cause });
  }
}
