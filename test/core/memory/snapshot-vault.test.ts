import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeGzip } from '../../../lambdas/adapters/compression/node-gzip.js';
import {
  EncryptionSdkEnvelope,
  rawAesKeyring,
} from '../../../lambdas/adapters/encryption/encryption-sdk-envelope.js';
import { FileBlobStore } from '../../../lambdas/adapters/files/file-blob-store.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import {
  buildSnapshot,
  type SnapshotInput,
  SnapshotIntegrityError,
} from '../../../lambdas/core/memory/snapshots/snapshot-manifest.js';
import {
  readSnapshot,
  readsBackIntact,
  SnapshotNotFoundError,
  type SnapshotVaultDeps,
  snapshotKeys,
  writeSnapshot,
} from '../../../lambdas/core/memory/snapshots/snapshot-vault.js';
import { BlobExistsError, sha256Hex } from '../../../lambdas/core/ports/index.js';

const SECRET_LOOKING_CONTENT = 'Decision: the billing service moves to Postgres 16 in Q3';

function input(overrides: Partial<SnapshotInput> = {}): SnapshotInput {
  return {
    projectId: 'proj-1',
    snapshotId: 'snap-1',
    createdAt: '2026-11-23T20:30:00Z',
    previousManifestSha256: null,
    items: [
      { id: 'entry-1', kind: 'entry', data: { content: SECRET_LOOKING_CONTENT } },
      { id: 'branch-main', kind: 'branch', data: { name: 'main' } },
    ],
    blobs: [{ key: 'projects/proj-1/bodies/1', bytes: new TextEncoder().encode('a long body '.repeat(100)) }],
    ...overrides,
  };
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('snapshot vault (real Encryption SDK, raw AES keyring; files blob store)', () => {
  let root: string;
  let deps: SnapshotVaultDeps;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'meridian-snapshots-'));
    deps = {
      blobs: new FileBlobStore(root),
      encryption: new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32)))),
      compressor: nodeGzip,
    };
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** Flips one bit of a stored object on disk, as damage or tampering would. */
  async function flipStoredBit(key: string, position: (length: number) => number): Promise<void> {
    const path = join(root, `${key}~`);
    const stored = Buffer.from(await readFile(path));
    const at = position(stored.length);
    stored[at]! ^= 0x10;
    await rm(path);
    await writeFile(path, stored);
  }

  describe('writeSnapshot then readSnapshot', () => {
    it('gives back every item and blob, verified against the recorded manifest hash', async () => {
      const built = buildSnapshot(input());

      const stored = await writeSnapshot(deps, built);
      const read = await readSnapshot(deps, {
        projectId: 'proj-1',
        snapshotId: 'snap-1',
        manifestSha256: stored.manifestSha256,
      });

      const keys = snapshotKeys('proj-1', 'snap-1');
      expect(stored).toMatchObject({
        archiveKey: keys.archive,
        manifestKey: keys.manifest,
        manifestSha256: built.manifestSha256,
      });
      expect(read.items).toEqual(input().items);
      expect(read.blobs.map((b) => b.bytes)).toEqual(input().blobs.map((b) => b.bytes));
      expect(stored.sizeBytes).toBe(
        (await deps.blobs.head(stored.archiveKey))!.size + (await deps.blobs.head(stored.manifestKey))!.size,
      );
    });

    it('stores ciphertext only: no item text is readable in the stored objects', async () => {
      const stored = await writeSnapshot(deps, buildSnapshot(input()));

      for (const key of [stored.archiveKey, stored.manifestKey]) {
        const raw = Buffer.from(await deps.blobs.get(key)).toString('latin1');
        expect(raw).not.toContain('Postgres');
        expect(raw).not.toContain('entry-1');
      }
    });

    it('gzips each object under the encryption: a snapshot of repetitive text stores far fewer bytes', async () => {
      const items = Array.from({ length: 500 }, (_, i) => ({
        id: `entry-${i}`,
        kind: 'entry',
        data: { content: `${SECRET_LOOKING_CONTENT}; see src/billing/${i}.ts` },
      }));
      const built = buildSnapshot(input({ items, blobs: [] }));

      const stored = await writeSnapshot(deps, built);

      const plaintextBytes = built.archiveBytes.byteLength + built.manifestBytes.byteLength;
      expect(stored.sizeBytes).toBeLessThan(plaintextBytes / 3);
      const archive = await deps.encryption.decrypt(await deps.blobs.get(stored.archiveKey), {
        project_id: 'proj-1',
        snapshot_id: 'snap-1',
      });
      expect(Buffer.from(await nodeGzip.decompress(archive))).toEqual(Buffer.from(built.archiveBytes));
    });

    it('still reads a snapshot stored before compression (plain canonical JSON under the encryption)', async () => {
      const built = buildSnapshot(input());
      const keys = snapshotKeys('proj-1', 'snap-1');
      const context = { project_id: 'proj-1', snapshot_id: 'snap-1' };
      await deps.blobs.put(keys.archive, await deps.encryption.encrypt(built.archiveBytes, context));
      await deps.blobs.put(keys.manifest, await deps.encryption.encrypt(built.manifestBytes, context));

      const read = await readSnapshot(deps, {
        projectId: 'proj-1',
        snapshotId: 'snap-1',
        manifestSha256: built.manifestSha256,
      });

      expect(read.items).toEqual(input().items);
    });

    it('refuses an archive that decrypts to a broken gzip stream as unreadable, not as a crash', async () => {
      const built = buildSnapshot(input());
      const keys = snapshotKeys('proj-1', 'snap-1');
      const context = { project_id: 'proj-1', snapshot_id: 'snap-1' };
      const zipped = await nodeGzip.compress(built.archiveBytes);
      const broken = zipped.slice(0, Math.floor(zipped.length / 2));
      await deps.blobs.put(keys.archive, await deps.encryption.encrypt(broken, context));
      await deps.blobs.put(
        keys.manifest,
        await deps.encryption.encrypt(await nodeGzip.compress(built.manifestBytes), context),
      );

      const error = await thrown(readSnapshot(deps, { projectId: 'proj-1', snapshotId: 'snap-1' }));

      expect(error).toBeInstanceOf(SnapshotIntegrityError);
      expect((error as SnapshotIntegrityError).reason).toBe('ARCHIVE_UNREADABLE');
    });

    it('refuses a part that decrypts to neither gzip nor JSON as a form it does not read, not as damage', async () => {
      const built = buildSnapshot(input());
      const keys = snapshotKeys('proj-1', 'snap-1');
      const context = { project_id: 'proj-1', snapshot_id: 'snap-1' };
      // What a newer Meridian compressing another way (zstd's magic number first) would store.
      const zstdLike = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, ...built.archiveBytes.subarray(0, 64)]);
      await deps.blobs.put(keys.archive, await deps.encryption.encrypt(zstdLike, context));
      await deps.blobs.put(
        keys.manifest,
        await deps.encryption.encrypt(await nodeGzip.compress(built.manifestBytes), context),
      );

      const error = await thrown(readSnapshot(deps, { projectId: 'proj-1', snapshotId: 'snap-1' }));

      expect(error).toMatchObject({ name: 'SnapshotIntegrityError', reason: 'FORMAT_UNSUPPORTED' });
    });

    it('refuses a snapshot naming a newer snapshot format as a format it does not read, not as damage', async () => {
      const built = buildSnapshot(input());
      const newer = (bytes: Uint8Array) =>
        new TextEncoder().encode(
          new TextDecoder()
            .decode(bytes)
            .replace('"format":"meridian-snapshot/1"', '"format":"meridian-snapshot/2"'),
        );
      const manifestBytes = newer(built.manifestBytes);
      await writeSnapshot(deps, {
        ...built,
        manifestBytes,
        archiveBytes: newer(built.archiveBytes),
        manifestSha256: sha256Hex(manifestBytes),
      });

      const error = await thrown(
        readSnapshot(deps, {
          projectId: 'proj-1',
          snapshotId: 'snap-1',
          manifestSha256: sha256Hex(manifestBytes),
        }),
      );

      expect(error).toMatchObject({ name: 'SnapshotIntegrityError', reason: 'FORMAT_UNSUPPORTED' });
      expect((error as Error).message).toContain('"meridian-snapshot/2"');
    });

    it('finds a stored snapshot intact only against the manifest hash recorded for it, and not after a flipped bit', async () => {
      const built = buildSnapshot(input());
      const stored = await writeSnapshot(deps, built);
      const expected = { projectId: 'proj-1', snapshotId: 'snap-1', manifestSha256: built.manifestSha256 };

      expect(await readsBackIntact(deps, expected)).toBe(true);
      expect(await readsBackIntact(deps, { ...expected, manifestSha256: '0'.repeat(64) })).toBe(false);
      await flipStoredBit(stored.archiveKey, (length) => length >> 1);
      expect(await readsBackIntact(deps, expected)).toBe(false);
    });

    it('refuses to write a snapshot id twice, and the first snapshot stays readable', async () => {
      await writeSnapshot(deps, buildSnapshot(input()));

      const error = await thrown(writeSnapshot(deps, buildSnapshot(input({ description: 'second' }))));

      expect(error).toBeInstanceOf(BlobExistsError);
      const read = await readSnapshot(deps, { projectId: 'proj-1', snapshotId: 'snap-1' });
      expect(read.manifest.body.description).toBeUndefined();
    });
  });

  describe('readSnapshot', () => {
    it.each([
      ['its first byte', () => 0],
      ['the middle', (n: number) => n >> 1],
      ['its last byte', (n: number) => n - 1],
    ])('refuses an archive with one bit flipped in %s', async (_, position) => {
      const stored = await writeSnapshot(deps, buildSnapshot(input()));
      await flipStoredBit(stored.archiveKey, position);

      const error = await thrown(readSnapshot(deps, { projectId: 'proj-1', snapshotId: 'snap-1' }));

      expect(error).toBeInstanceOf(SnapshotIntegrityError);
    });

    it.each([
      ['its first byte', () => 0],
      ['the middle', (n: number) => n >> 1],
      ['its last byte', (n: number) => n - 1],
    ])('refuses a manifest with one bit flipped in %s', async (_, position) => {
      const stored = await writeSnapshot(deps, buildSnapshot(input()));
      await flipStoredBit(stored.manifestKey, position);

      const error = await thrown(readSnapshot(deps, { projectId: 'proj-1', snapshotId: 'snap-1' }));

      expect(error).toBeInstanceOf(SnapshotIntegrityError);
    });

    it('refuses objects copied from another project: the encryption context names the project', async () => {
      const stored = await writeSnapshot(deps, buildSnapshot(input()));
      const elsewhere = snapshotKeys('proj-2', 'snap-1');
      await deps.blobs.put(elsewhere.archive, await deps.blobs.get(stored.archiveKey));
      await deps.blobs.put(elsewhere.manifest, await deps.blobs.get(stored.manifestKey));

      const error = await thrown(readSnapshot(deps, { projectId: 'proj-2', snapshotId: 'snap-1' }));

      expect(error).toBeInstanceOf(SnapshotIntegrityError);
      expect((error as SnapshotIntegrityError).reason).toBe('DECRYPTION_FAILED');
      expect(String((error as Error).cause)).toContain('project_id');
    });

    it('refuses an archive swapped in from another snapshot of the same project', async () => {
      const first = await writeSnapshot(deps, buildSnapshot(input()));
      const second = await writeSnapshot(
        deps,
        buildSnapshot(input({ snapshotId: 'snap-2', previousManifestSha256: first.manifestSha256 })),
      );
      const archiveOfFirst = await deps.blobs.get(first.archiveKey);
      await deps.blobs.delete(second.archiveKey);
      await deps.blobs.put(second.archiveKey, archiveOfFirst);

      const error = await thrown(readSnapshot(deps, { projectId: 'proj-1', snapshotId: 'snap-2' }));

      expect((error as SnapshotIntegrityError).reason).toBe('DECRYPTION_FAILED');
    });

    it('reports a snapshot whose manifest was never written as not found', async () => {
      // What a crash between the two writes leaves: the archive alone.
      const built = buildSnapshot(input());
      await deps.blobs.put(
        snapshotKeys('proj-1', 'snap-1').archive,
        await deps.encryption.encrypt(built.archiveBytes, { project_id: 'proj-1', snapshot_id: 'snap-1' }),
      );

      const error = await thrown(readSnapshot(deps, { projectId: 'proj-1', snapshotId: 'snap-1' }));

      expect(error).toBeInstanceOf(SnapshotNotFoundError);
    });

    it('rejects an id that would leave the project’s folder', async () => {
      const error = await thrown(readSnapshot(deps, { projectId: 'proj-1', snapshotId: '../proj-2' }));

      expect(isDomainError(error, 'INVALID_INPUT')).toBe(true);
    });
  });
});
