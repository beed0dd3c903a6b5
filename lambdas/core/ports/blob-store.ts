import { hash } from 'node:crypto';
import { DomainError } from '../errors.js';

/**
 * The blob-store port: immutable byte objects addressed by a slash-separated key (memory bodies
 * too large for the table, search indexes, encrypted snapshots). S3 on AWS, files under the data
 * dir in the embedded runtime; one contract suite (test/adapters/blob-store-contract.ts) holds
 * both to the same behaviour.
 *
 * Blobs are create-only: a key is written once and never overwritten, so a reader holding a key
 * and its SHA-256 always reads the bytes that hash was taken from, and two writers racing on one
 * key cannot silently lose one write (one of them gets {@link BlobExistsError}).
 */
export interface BlobStore {
  /**
   * Stores `bytes` under `key` if nothing is stored there yet.
   *
   * @returns the SHA-256 of the bytes (lower-case hex), for the caller to record
   * @throws BlobExistsError when the key already holds a blob
   */
  put(key: string, bytes: Uint8Array): Promise<BlobWritten>;

  /**
   * The bytes under `key`. With `expectedSha256`, refuses bytes whose hash differs.
   *
   * @throws BlobNotFoundError when nothing is stored under the key
   * @throws BlobIntegrityError when `expectedSha256` is given and does not match
   */
  get(key: string, options?: { expectedSha256?: string }): Promise<Uint8Array>;

  /** Size and SHA-256 of the blob under `key`, or undefined when there is none. */
  head(key: string): Promise<BlobInfo | undefined>;

  /** Removes the blob under `key`; removing a missing blob is not an error. */
  delete(key: string): Promise<void>;

  /** Keys starting with `prefix`, in ascending byte order, a page at a time. */
  list(options: BlobListOptions): Promise<BlobPage>;
}

export interface BlobWritten {
  key: string;
  size: number;
  /** Lower-case hex SHA-256 of the stored bytes. */
  sha256: string;
}

export type BlobInfo = BlobWritten;

export interface BlobListOptions {
  /** Only keys that start with this string (it need not end at a `/`). */
  prefix: string;
  /**
   * Page size, 1–1000.
   *
   * @default 1000
   */
  limit?: number;
  /** Opaque cursor from the previous page. */
  cursor?: string;
}

export interface BlobPage {
  blobs: { key: string; size: number }[];
  /** Present when more keys may follow. */
  cursor?: string;
}

export const MAX_BLOB_KEY_LENGTH = 512;
export const MAX_BLOB_PAGE = 1000;

// Segments may not start with a dot: that rules out `.`/`..` (path traversal in the file adapter)
// and keeps names like `.tmp` free for an adapter's own bookkeeping.
const KEY_SEGMENT = /^[A-Za-z0-9_=-][A-Za-z0-9._=-]*$/;

/**
 * Throws a DomainError that says what a valid key looks like unless `key` is one: 1–512
 * characters, `/`-separated segments of letters, digits, `.`, `_`, `=`, `-`, none empty and none
 * starting with a dot.
 *
 * @example
 * assertBlobKey('projects/p1/bodies/e3b0c442.json'); // ok
 * assertBlobKey('projects/../secrets'); // throws INVALID_INPUT
 */
export function assertBlobKey(key: string): void {
  const valid =
    key.length > 0 && key.length <= MAX_BLOB_KEY_LENGTH && key.split('/').every((s) => KEY_SEGMENT.test(s));
  if (!valid) {
    throw new DomainError(
      'INVALID_INPUT',
      `Invalid blob key ${JSON.stringify(key)}: expected 1-${MAX_BLOB_KEY_LENGTH} characters of "/"-separated ` +
        'segments made of letters, digits, ".", "_", "=", "-", none empty and none starting with "." ' +
        '(example: "projects/p1/snapshots/s1/archive").',
      { field: 'key' },
    );
  }
}

/**
 * Throws unless `prefix` is empty or a valid key prefix (the same characters as a key; it may end
 * with `/` or in the middle of a segment).
 */
export function assertBlobPrefix(prefix: string): void {
  if (prefix === '') return;
  const probe = prefix.endsWith('/') ? `${prefix}x` : prefix;
  try {
    assertBlobKey(probe);
  } catch {
    throw new DomainError(
      'INVALID_INPUT',
      `Invalid blob prefix ${JSON.stringify(prefix)}: use the characters of a key, e.g. "projects/p1/".`,
      { field: 'prefix' },
    );
  }
}

/** The page size asked for, checked: 1–1000, 1000 when not given. */
export function blobPageSize(limit: number | undefined): number {
  if (limit === undefined) return MAX_BLOB_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_BLOB_PAGE) {
    throw new DomainError(
      'INVALID_INPUT',
      `limit must be a whole number from 1 to ${MAX_BLOB_PAGE} (got ${limit}).`,
      {
        field: 'limit',
      },
    );
  }
  return limit;
}

/**
 * Both adapters page by "start after this key" (S3's `Marker`), so the cursor is the last key of a
 * page, encoded so callers treat it as opaque.
 */
export function blobCursor(lastKey: string): string {
  return Buffer.from(lastKey, 'utf8').toString('base64url');
}

/** The key a cursor from {@link blobCursor} starts after; a damaged cursor is the caller's to fix. */
export function keyAfterCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  try {
    assertBlobKey(key);
  } catch {
    throw new DomainError(
      'INVALID_INPUT',
      "cursor is not one this store returned: pass the previous page's cursor unchanged.",
      {
        field: 'cursor',
      },
    );
  }
  return key;
}

/**
 * Lower-case hex SHA-256 of `bytes`, or of a string's UTF-8 bytes (hashed without first copying
 * them into an array: snapshots hash tens of thousands of item texts).
 */
export function sha256Hex(bytes: Uint8Array | string): string {
  return hash('sha256', bytes, 'hex');
}

/**
 * Throws BlobIntegrityError when `bytes` do not hash to `expectedSha256` (when one is given).
 * Adapters call it on every verified read, so the check is the same everywhere.
 */
export function verifyBlob(key: string, bytes: Uint8Array, expectedSha256: string | undefined): void {
  if (expectedSha256 === undefined) return;
  const actual = sha256Hex(bytes);
  if (actual !== expectedSha256.toLowerCase()) throw new BlobIntegrityError(key, expectedSha256, actual);
}

/** A create-only write found the key taken. Callers decide by class, never by message. */
export class BlobExistsError extends Error {
  override readonly name = 'BlobExistsError';

  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(
      `A blob already exists under "${key}"; blobs are never overwritten: write under a new key.`,
      options,
    );
  }
}

export class BlobNotFoundError extends Error {
  override readonly name = 'BlobNotFoundError';

  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`No blob is stored under "${key}".`, options);
  }
}

/** The bytes read back do not hash to what was recorded: damaged or replaced storage. */
export class BlobIntegrityError extends Error {
  override readonly name = 'BlobIntegrityError';

  constructor(
    readonly key: string,
    readonly expectedSha256: string,
    readonly actualSha256: string,
  ) {
    super(`The blob under "${key}" hashes to ${actualSha256}, not the recorded ${expectedSha256}.`);
  }
}
