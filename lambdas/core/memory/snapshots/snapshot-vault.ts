import { z } from 'zod';
import { DomainError } from '../../errors.js';
import {
  assertBlobKey,
  BlobNotFoundError,
  type BlobStore,
  type Compressor,
  type EnvelopeEncryption,
  sha256Hex,
} from '../../ports/index.js';
import {
  type BuiltSnapshot,
  type SnapshotExpectation,
  SnapshotIntegrityError,
  type VerifiedSnapshot,
  verifySnapshot,
} from './snapshot-manifest.js';

/**
 * Encrypted, create-only storage of snapshots in the blob store. Each snapshot is two objects,
 * `projects/<project>/snapshots/<snapshot>/archive` and `…/manifest`, each gzipped and then
 * encrypted on its own through the EnvelopeEncryption port (AWS Encryption SDK: KMS keyring on
 * AWS, raw AES locally) with the encryption context `{project_id, snapshot_id}`, which decryption
 * checks: an object copied under another project's or snapshot's key does not decrypt as that one.
 *
 * Why gzip: memory is text that shrinks several times over (the bench's 10,000 items: 3.62 MB
 * to 0.6 MB), and the Encryption SDK costs about as much per byte as everything else a snapshot
 * does, so fewer bytes make snapshots, restores and syncs faster and the objects smaller. Hashes
 * are over the plaintext (snapshot-manifest.ts), so compression changes nothing a verification
 * checks. Compression happens before encryption (ciphertext does not compress); what a
 * snapshot's size could tell about its content is limited to its total length, and only to
 * someone who can read the bucket's object sizes.
 * Snapshots stored before compression (plain canonical JSON) still read.
 */

export interface SnapshotVaultDeps {
  blobs: BlobStore;
  encryption: EnvelopeEncryption;
  /** gzip, applied under the encryption. */
  compressor: Compressor;
}

export interface StoredSnapshot {
  archiveKey: string;
  manifestKey: string;
  /** Bytes stored (both ciphertexts). */
  sizeBytes: number;
  manifestSha256: string;
}

/** No manifest is stored for this snapshot (never made, or its write never finished). */
export class SnapshotNotFoundError extends Error {
  override readonly name = 'SnapshotNotFoundError';

  constructor(
    readonly projectId: string,
    readonly snapshotId: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Project ${projectId} has no snapshot ${snapshotId}; list the project's snapshots for valid ids.`,
      options,
    );
  }
}

/** Where a snapshot's two objects live. Ids must be usable as key segments. */
export function snapshotKeys(projectId: string, snapshotId: string): { archive: string; manifest: string } {
  for (const [field, id] of [
    ['project_id', projectId],
    ['snapshot_id', snapshotId],
  ] as const) {
    if (id.includes('/')) {
      throw new DomainError('INVALID_INPUT', `${field} may not contain "/" (got ${JSON.stringify(id)}).`, {
        field,
      });
    }
  }
  const folder = `projects/${projectId}/snapshots/${snapshotId}`;
  assertBlobKey(`${folder}/manifest`);
  return { archive: `${folder}/archive`, manifest: `${folder}/manifest` };
}

const contextOf = (projectId: string, snapshotId: string) => ({
  project_id: projectId,
  snapshot_id: snapshotId,
});

/**
 * Encrypts and stores a built snapshot. The archive is written before the manifest, so the
 * manifest's presence marks a complete snapshot: a crash in between leaves an archive nobody
 * lists, never a manifest without its archive. Both writes are create-only (BlobExistsError when
 * the snapshot id is taken). `before`: what must have landed before anything is stored (it runs
 * while the parts are sealed; if it fails, nothing is stored).
 */
export async function writeSnapshot(
  deps: SnapshotVaultDeps,
  snapshot: BuiltSnapshot,
  before: Promise<unknown> = Promise.resolve(),
): Promise<StoredSnapshot> {
  const { project_id: projectId, snapshot_id: snapshotId } = snapshot.manifest.body;
  const keys = snapshotKeys(projectId, snapshotId);
  const context = contextOf(projectId, snapshotId);
  const [, archive, manifest] = await Promise.all([
    before,
    seal(deps, snapshot.archiveBytes, context),
    seal(deps, snapshot.manifestBytes, context),
  ]);
  await deps.blobs.put(keys.archive, archive);
  await deps.blobs.put(keys.manifest, manifest);
  return {
    archiveKey: keys.archive,
    manifestKey: keys.manifest,
    sizeBytes: archive.byteLength + manifest.byteLength,
    manifestSha256: snapshot.manifestSha256,
  };
}

/** Where a manifest records its archive's hash; the rest of it is not read here. */
const ArchiveRecord = z.object({
  body: z.object({ archive: z.object({ sha256: z.string(), size: z.number() }) }),
});

/**
 * Whether a stored snapshot is still exactly as made: both parts fetched, decrypted under their
 * context and unzipped, the manifest hashing to the hash recorded for it (the catalog's), and the
 * archive to the hash that manifest records — which covers every byte of every item, each hashed
 * over exactly those bytes when the snapshot was built. So this checks every hash without parsing
 * the archive and hashing its items again. A new snapshot is checked with it before it counts as
 * verified, and so is a snapshot a restore would keep as its backup; restoring *from* a snapshot,
 * where the bytes' origin is what is in question, recomputes every item's ({@link readSnapshot}).
 */
export async function readsBackIntact(
  deps: SnapshotVaultDeps,
  expected: Required<SnapshotExpectation>,
): Promise<boolean> {
  try {
    const { manifest, archive } = await readParts(deps, expected);
    if (sha256Hex(manifest) !== expected.manifestSha256) return false;
    const recorded = archiveRecordOf(manifest);
    return (
      recorded !== undefined && archive.byteLength === recorded.size && sha256Hex(archive) === recorded.sha256
    );
  } catch (error) {
    if (error instanceof SnapshotIntegrityError || error instanceof SnapshotNotFoundError) return false;
    throw error;
  }
}

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

/**
 * Reads, decrypts and verifies a stored snapshot; returns its content only when every check
 * holds (encryption context, authentication tag, every hash in the manifest).
 *
 * @throws SnapshotNotFoundError when the snapshot has no manifest
 * @throws SnapshotIntegrityError when anything was changed or belongs to another snapshot
 */
export async function readSnapshot(
  deps: SnapshotVaultDeps,
  expected: SnapshotExpectation,
): Promise<VerifiedSnapshot> {
  return (await readSnapshotPlaintext(deps, expected)).verified;
}

/**
 * {@link readSnapshot}, also answering the verified plaintext bytes: what cloud sync re-encrypts
 * under another key without rebuilding (and so re-hashing) the snapshot.
 */
export async function readSnapshotPlaintext(
  deps: SnapshotVaultDeps,
  expected: SnapshotExpectation,
): Promise<{ verified: VerifiedSnapshot; built: BuiltSnapshot; storedBytes: number }> {
  const { manifest: manifestBytes, archive: archiveBytes, storedBytes } = await readParts(deps, expected);
  const verified = verifySnapshot(manifestBytes, archiveBytes, expected);
  return {
    verified,
    built: {
      manifest: verified.manifest,
      manifestBytes,
      archiveBytes,
      manifestSha256: verified.manifestSha256,
    },
    storedBytes,
  };
}

/**
 * A stored snapshot's two parts as plaintext (fetched, decrypted under their context, unzipped),
 * and the bytes stored. Nothing is checked beyond what decryption checks.
 *
 * @throws SnapshotNotFoundError when a part is missing
 * @throws SnapshotIntegrityError when a part does not decrypt or unzip
 */
async function readParts(
  deps: SnapshotVaultDeps,
  expected: SnapshotExpectation,
): Promise<{ manifest: Uint8Array; archive: Uint8Array; storedBytes: number }> {
  const keys = snapshotKeys(expected.projectId, expected.snapshotId);
  const context = contextOf(expected.projectId, expected.snapshotId);
  const [manifest, archive] = await Promise.all([
    getOrNotFound(deps, keys.manifest, expected),
    getOrNotFound(deps, keys.archive, expected),
  ]);
  const [manifestBytes, archiveBytes] = await Promise.all([
    openOrRefuse(deps, manifest, context, 'manifest'),
    openOrRefuse(deps, archive, context, 'archive'),
  ]);
  return {
    manifest: manifestBytes,
    archive: archiveBytes,
    storedBytes: manifest.byteLength + archive.byteLength,
  };
}

async function getOrNotFound(deps: SnapshotVaultDeps, key: string, expected: SnapshotExpectation) {
  try {
    return await deps.blobs.get(key);
  } catch (error) {
    if (error instanceof BlobNotFoundError) {
      throw new SnapshotNotFoundError(expected.projectId, expected.snapshotId, { cause: error });
    }
    throw error;
  }
}

async function seal(
  deps: SnapshotVaultDeps,
  plaintext: Uint8Array,
  context: Record<string, string>,
): Promise<Uint8Array> {
  return deps.encryption.encrypt(await deps.compressor.compress(plaintext), context);
}

/** gzip's magic number. Canonical JSON, what snapshots stored before compression hold, starts with `{`. */
const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
const OPENING_BRACE = 0x7b;

/** Decrypts and unzips one object; anything that fails is an integrity failure of the snapshot. */
async function openOrRefuse(
  deps: SnapshotVaultDeps,
  ciphertext: Uint8Array,
  context: Record<string, string>,
  what: string,
): Promise<Uint8Array> {
  let plaintext: Uint8Array;
  try {
    plaintext = await deps.encryption.decrypt(ciphertext, context);
  } catch (cause) {
    // The Encryption SDK authenticates every byte: a flipped bit, a truncation or a context that
    // is not this snapshot's all end here. Which one is in `cause`, for the logs.
    throw new SnapshotIntegrityError(
      'DECRYPTION_FAILED',
      `The snapshot's ${what} does not decrypt as ${context.project_id}/${context.snapshot_id}: it was changed or belongs elsewhere.`,
      { cause },
    );
  }
  if (!isGzip(plaintext)) {
    // Authentic bytes that are neither gzip nor JSON: a form a newer Meridian writes, not damage.
    if (plaintext.length > 0 && plaintext[0] !== OPENING_BRACE) {
      throw new SnapshotIntegrityError(
        'FORMAT_UNSUPPORTED',
        `The snapshot's ${what} decrypts but is stored in a form this version of Meridian does not read.`,
      );
    }
    return plaintext;
  }
  try {
    // Authenticated bytes this vault wrote, so never a decompression bomb from outside.
    return await deps.compressor.decompress(plaintext);
  } catch (cause) {
    throw new SnapshotIntegrityError(
      what === 'manifest' ? 'MANIFEST_UNREADABLE' : 'ARCHIVE_UNREADABLE',
      `The snapshot's ${what} decrypts but does not unzip.`,
      { cause },
    );
  }
}
