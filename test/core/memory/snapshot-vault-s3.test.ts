import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeGzip } from '../../../lambdas/adapters/compression/node-gzip.js';
import {
  EncryptionSdkEnvelope,
  rawAesKeyring,
} from '../../../lambdas/adapters/encryption/encryption-sdk-envelope.js';
import { S3BlobStore } from '../../../lambdas/adapters/s3/s3-blob-store.js';
import {
  buildSnapshot,
  SnapshotIntegrityError,
} from '../../../lambdas/core/memory/snapshots/snapshot-manifest.js';
import {
  readSnapshot,
  type SnapshotVaultDeps,
  writeSnapshot,
} from '../../../lambdas/core/memory/snapshots/snapshot-vault.js';
import { type RunningS3rver, s3rverClient, startS3rver } from '../../support/s3rver.js';

const BUCKET = 'meridian-snapshots-test';

describe('snapshot vault over S3 (s3rver, real Encryption SDK)', () => {
  let s3: RunningS3rver;
  let deps: SnapshotVaultDeps;
  let destroy: () => void;

  beforeAll(async () => {
    s3 = await startS3rver([BUCKET]);
    const client = s3rverClient(s3.endpoint);
    destroy = () => client.destroy();
    deps = {
      blobs: new S3BlobStore({ client, bucket: BUCKET }),
      encryption: new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32)))),
      compressor: nodeGzip,
    };
  });
  afterAll(async () => {
    destroy?.();
    await s3?.close();
  });

  const snapshot = (snapshotId: string) =>
    buildSnapshot({
      projectId: 'proj-s3',
      snapshotId,
      createdAt: '2026-11-23T21:00:00Z',
      previousManifestSha256: null,
      items: Array.from({ length: 200 }, (_, i) => ({ id: `entry-${i}`, kind: 'entry', data: { n: i } })),
      blobs: [{ key: 'projects/proj-s3/bodies/1', bytes: new Uint8Array(randomBytes(64 * 1024)) }],
    });

  it('reads back over the wire exactly what it wrote', async () => {
    const built = snapshot('snap-1');

    const stored = await writeSnapshot(deps, built);
    const read = await readSnapshot(deps, {
      projectId: 'proj-s3',
      snapshotId: 'snap-1',
      manifestSha256: stored.manifestSha256,
    });

    expect(read.items).toHaveLength(200);
    expect(read.blobs[0]!.sha256).toBe(built.manifest.body.blobs[0]!.sha256);
  });

  it('refuses an archive replaced in the bucket by one with a single flipped bit', async () => {
    const stored = await writeSnapshot(deps, snapshot('snap-2'));
    const tampered = new Uint8Array(await deps.blobs.get(stored.archiveKey));
    tampered[tampered.length >> 1]! ^= 0x01;
    await deps.blobs.delete(stored.archiveKey);
    await deps.blobs.put(stored.archiveKey, tampered);

    const error = await readSnapshot(deps, { projectId: 'proj-s3', snapshotId: 'snap-2' }).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(SnapshotIntegrityError);
  });
});
