import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { compareAndSet } from '../../core/compare-and-set.js';
import {
  assertBlobKey,
  assertBlobPrefix,
  BlobExistsError,
  type BlobInfo,
  type BlobListOptions,
  BlobNotFoundError,
  type BlobPage,
  type BlobStore,
  type BlobWritten,
  blobCursor,
  blobPageSize,
  keyAfterCursor,
  sha256Hex,
  verifyBlob,
} from '../../core/ports/index.js';

/** Where unfinished writes live; keys cannot start with a dot, so no key ever names it. */
const STAGING_DIR = '.staging';
/**
 * Appended to every blob's file name. `~` cannot occur in a key, so a blob's file never has a
 * folder's name: S3 holds `a` and `a/b` side by side, and so must this store.
 */
const BLOB_SUFFIX = '~';

/**
 * The embedded runtime's blob store: one file per blob under `root` (`<key>~`), owner-only (files 0600,
 * folders 0700). A write goes to a staging file first, is flushed to disk, and is then published
 * with `link()`, which fails if the final name exists: creation is atomic and create-only, and a
 * crash leaves at most an invisible staging file, never a half-written blob under its key.
 */
export class FileBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, bytes: Uint8Array): Promise<BlobWritten> {
    const path = this.pathOf(key);
    const staging = join(this.root, STAGING_DIR, randomUUID());
    await mkdir(dirname(staging), { recursive: true, mode: 0o700 });
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    try {
      const handle = await open(staging, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await publish(staging, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new BlobExistsError(key, { cause: error });
      throw error;
    } finally {
      await unlink(staging).catch(ignoreMissing);
    }
    await syncDirectory(dirname(path));
    return { key, size: bytes.byteLength, sha256: sha256Hex(bytes) };
  }

  async get(key: string, options: { expectedSha256?: string } = {}): Promise<Uint8Array> {
    const bytes = await this.read(key);
    if (bytes === undefined) throw new BlobNotFoundError(key);
    verifyBlob(key, bytes, options.expectedSha256);
    return bytes;
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    const path = this.pathOf(key);
    const info = await stat(path).catch(ignoreMissing);
    if (!info?.isFile()) return undefined;
    // The hash is computed, not stored beside the file: a side file would be one more thing a
    // crash could leave out of step with the blob.
    return { key, size: info.size, sha256: await hashFile(path) };
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await unlink(path).catch(ignoreMissing);
    // S3 has no folders, and neither should this store keep empty ones: a snapshot the sweep
    // collected leaves no folder behind. Only the blob's own folder, and only when empty; a put
    // racing into it recreates it (publish).
    if (dirname(path) !== this.root) await rmdir(dirname(path)).catch(ignoreNotEmpty);
  }

  /**
   * Walks the folder the prefix points into and sorts what it finds: a page costs a walk of that
   * folder, which suits a laptop's store of one organization's memory.
   */
  async list(options: BlobListOptions): Promise<BlobPage> {
    assertBlobPrefix(options.prefix);
    const limit = blobPageSize(options.limit);
    const after = keyAfterCursor(options.cursor);
    const folder = options.prefix.slice(0, options.prefix.lastIndexOf('/') + 1);
    const keys = (await this.keysUnder(folder))
      .filter((key) => key.startsWith(options.prefix) && (after === undefined || key > after))
      .sort(compareBytes);
    const page = keys.slice(0, limit);
    const blobs = await Promise.all(
      page.map(async (key) => ({ key, size: (await stat(this.pathOf(key))).size })),
    );
    return keys.length > limit ? { blobs, cursor: blobCursor(page.at(-1)!) } : { blobs };
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return `${join(this.root, ...key.split('/'))}${BLOB_SUFFIX}`;
  }

  private async read(key: string): Promise<Uint8Array | undefined> {
    const bytes = await readFile(this.pathOf(key)).catch(ignoreMissing);
    return bytes === undefined ? undefined : new Uint8Array(bytes);
  }

  /** Every key in `folder` and below (a walk by hand: recursive readdir lacks parentPath before Node 20.12). */
  private async keysUnder(folder: string): Promise<string[]> {
    const entries = await readdir(join(this.root, folder), { withFileTypes: true }).catch(ignoreMissing);
    const keys: string[] = [];
    for (const entry of entries ?? []) {
      const key = `${folder}${entry.name}`;
      if (entry.isDirectory() && key !== STAGING_DIR) keys.push(...(await this.keysUnder(`${key}/`)));
      else if (entry.isFile() && key.endsWith(BLOB_SUFFIX)) keys.push(key.slice(0, -BLOB_SUFFIX.length));
    }
    return keys;
  }
}

/**
 * Links the staged file under its key. A delete may remove the key's folder, empty, between the
 * put's mkdir and this link: then the folder is made again and the link retried.
 */
async function publish(staging: string, path: string): Promise<void> {
  await compareAndSet(
    async (attempt) => {
      if (attempt > 1) await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await link(staging, path);
    },
    { maxAttempts: 3, isLostRace: (error) => (error as NodeJS.ErrnoException).code === 'ENOENT' },
  );
}

function ignoreNotEmpty(error: unknown): undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return undefined;
  throw error;
}

function ignoreMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw error;
}

/** S3 lists keys in UTF-8 byte order; JavaScript's `<` compares UTF-16 units. Keys are ASCII, but say so. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Makes the new directory entry durable, so a power cut after put() returns cannot lose the blob. */
async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
