import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../../lambdas/adapters/files/file-blob-store.js';
import { BlobExistsError, BlobIntegrityError } from '../../../lambdas/core/ports/index.js';
import { describeBlobStoreContract } from '../blob-store-contract.js';

describeBlobStoreContract('files under a folder', async () => {
  const root = await mkdtemp(join(tmpdir(), 'meridian-blobs-'));
  return { store: new FileBlobStore(root), close: () => rm(root, { recursive: true, force: true }) };
});

describe('FileBlobStore', () => {
  let root: string;
  let store: FileBlobStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'meridian-blobs-'));
    store = new FileBlobStore(root);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  describe('put', () => {
    it('writes files only the owner can read, in folders only the owner can enter', async () => {
      await store.put('projects/p1/bodies/b1', new TextEncoder().encode('secret-free body'));

      expect((await stat(join(root, 'projects/p1/bodies/b1~'))).mode & 0o777).toBe(0o600);
      expect((await stat(join(root, 'projects/p1/bodies'))).mode & 0o777).toBe(0o700);
      expect((await stat(join(root, 'projects'))).mode & 0o777).toBe(0o700);
    });

    it('lets exactly one of 12 concurrent writers create a key, and keeps its bytes whole', async () => {
      const bodies = Array.from({ length: 12 }, (_, i) =>
        new TextEncoder().encode(`writer ${i} `.repeat(5000)),
      );

      const outcomes = await Promise.allSettled(bodies.map((body) => store.put('race/key', body)));

      const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
      expect(winners).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(BlobExistsError);
      expect(await store.get('race/key')).toEqual(bodies[winners[0]!]);
      expect(await readdir(join(root, '.staging'))).toEqual([]);
    });

    it('leaves no staging file behind when the key is taken', async () => {
      await store.put('k', new Uint8Array([1]));
      await expect(store.put('k', new Uint8Array([2]))).rejects.toBeInstanceOf(BlobExistsError);

      expect(await readdir(join(root, '.staging'))).toEqual([]);
    });
  });

  describe('after a crash mid-write', () => {
    it('shows no blob for the unfinished staging file, and the key stays free', async () => {
      await store.put('projects/p1/done', new Uint8Array([1]));
      // What a crash between writing and publishing leaves: a staging file and no link.
      await writeFile(join(root, '.staging', 'half-written'), 'partial', { mode: 0o600 });

      const page = await store.list({ prefix: '' });

      expect(page.blobs.map((b) => b.key)).toEqual(['projects/p1/done']);
      expect(await store.head('projects/p1/half-written')).toBeUndefined();
    });
  });

  describe('get', () => {
    it('detects one flipped bit in the file on disk', async () => {
      const { sha256 } = await store.put('bodies/b', new TextEncoder().encode('the body as written'));
      const path = join(root, 'bodies/b~');
      const damaged = Buffer.from(await readFile(path));
      damaged[4]! ^= 0x01;
      await rm(path);
      await writeFile(path, damaged);

      await expect(store.get('bodies/b', { expectedSha256: sha256 })).rejects.toBeInstanceOf(
        BlobIntegrityError,
      );
      expect((await store.head('bodies/b'))?.sha256).not.toBe(sha256);
    });
  });
});
