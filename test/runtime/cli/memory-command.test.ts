import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { createEmbeddedRuntime } from '../../../lambdas/runtime/embedded.js';
import { meridian } from '../../support/cli.js';
import { type RunningS3rver, startS3rver } from '../../support/s3rver.js';

const BUCKET = 'cli-memory-sync';

describe('meridian memory snapshot|snapshots|restore|sync (a real process, data dir, s3rver)', () => {
  let dataDir: string;
  let s3: RunningS3rver;
  let env: Record<string, string>;
  let projectId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-cli-memory-'));
    s3 = await startS3rver([BUCKET]);
    env = {
      CI: 'true',
      MERIDIAN_MEMORY_SYNC_BUCKET: BUCKET,
      MERIDIAN_MEMORY_SYNC_ENDPOINT: s3.endpoint,
      MERIDIAN_MEMORY_SYNC_KEY_FILE: join(dataDir, 'sync.key'),
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    };
    const runtime = await createEmbeddedRuntime({ dataDir, host: '127.0.0.1', port: 0 });
    try {
      projectId = (await runtime.rules.projects.create({ name: 'Shop' })).project_id;
      await runtime.memory.createBranch(LOCAL_OWNER, projectId, { topic: 'checkout' });
    } finally {
      await runtime.close();
    }
  });

  afterAll(async () => {
    await s3?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const run = (...args: string[]) => meridian(['memory', ...args, '--data-dir', dataDir], env);

  it('snapshots, lists, restores and pushes, with a step line per step on stderr under CI', async () => {
    const snap = await run('snapshot', projectId, '--description', 'before');
    const snapshotId = /^(snap_\S+)/.exec(snap.stdout)?.[1];
    expect(snap.stdout).toContain('verified');
    expect(snap.stderr).toContain('[1/1] snapshot');

    // A second snapshot with nothing written since: it holds the memory a restore replaces.
    const again = await run('snapshot', projectId, '--description', 'again');
    const holdingId = /^(snap_\S+)/.exec(again.stdout)?.[1];

    const restored = await run('restore', projectId, snapshotId!);
    expect(restored.stdout).toContain(`Restored ${snapshotId}`);
    expect(restored.stderr.trim().split('\n')).toEqual([
      '[1/5] verify',
      '[2/5] backup',
      '[3/5] stage',
      '[4/5] activate',
      '[5/5] check',
    ]);
    // So no copy of it is saved: the backup is that snapshot.
    expect(restored.stdout).toContain(`The previous memory is snapshot ${holdingId}`);

    // Restored again: the memory holds it already, so it is checked and nothing else is done.
    const repeated = await run('restore', projectId, snapshotId!);
    expect(repeated.stdout).toContain(`Restored ${snapshotId}`);
    expect(repeated.stderr.trim().split('\n')).toEqual(['[1/5] verify']);
    expect(repeated.stdout).toContain(`The previous memory is snapshot ${snapshotId}`);
    const listed = await run('snapshots', projectId);
    expect(listed.stdout).toContain(`${snapshotId}`);
    expect(listed.stdout).toContain('2 snapshots.');

    const pushed = await run('sync', 'push', projectId);
    expect(pushed.stdout).toContain(`Uploaded`);
    expect(pushed.stdout).toContain(`s3://${BUCKET}/projects/${projectId}/snapshots/`);
    expect((await run('sync', 'pull', projectId)).stdout).toContain('Up to date');
  }, 120_000);

  it('says what is missing from a command line', async () => {
    const error = await run('restore', projectId).then(
      () => undefined,
      (e: { stderr: string }) => e,
    );
    expect(error?.stderr).toContain('SNAPSHOT_ID is missing');
  }, 60_000);
});
