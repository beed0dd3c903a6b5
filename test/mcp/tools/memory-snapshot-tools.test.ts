import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EncryptionSdkEnvelope,
  rawAesKeyring,
} from '../../../lambdas/adapters/encryption/encryption-sdk-envelope.js';
import { S3BlobStore } from '../../../lambdas/adapters/s3/s3-blob-store.js';
import { routeHttpRequest } from '../../../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../../../lambdas/runtime/node-http-server.js';
import { type CallToolResult, connectHttpClient, errorOf } from '../../support/mcp-client.js';
import { s3rverClient } from '../../support/s3rver.js';
import { startSyncBucket } from '../../support/sync-bucket.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

type Structured = Record<string, unknown>;
const BUCKET = 'org-memory';

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Structured;
}

/** One served runtime with keys; closes everything it opened. */
async function served(runtime: TestRuntime) {
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    handle: (request) => routeHttpRequest(request, runtime),
    logger: runtime.logger,
  });
  const clients: Client[] = [];
  return {
    async client(label: string) {
      const key = await runtime.newKey(label);
      const client = await connectHttpClient(`${server.url}/mcp`, undefined, {
        authorization: `Bearer ${key.token}`,
      });
      clients.push(client);
      return { client, keyId: key.keyId };
    },
    async close() {
      for (const client of clients) await client.close();
      await server.close();
      await runtime.close();
    },
  };
}

describe('snapshot and cloud sync tools over HTTP (real Client, grants, s3rver bucket)', () => {
  let bucket: Awaited<ReturnType<typeof startSyncBucket>>;
  let runtime: TestRuntime;
  let laptop: Awaited<ReturnType<typeof served>>;
  let owner: Client;
  let reader: Client;
  let stranger: Client;
  let projectId: string;
  let branchId: string;

  beforeAll(async () => {
    bucket = await startSyncBucket(BUCKET);
    runtime = await startTestRuntime({ memorySync: { cloud: bucket.cloud } });
    laptop = await served(runtime);
    ({ client: owner } = await laptop.client('owner'));
    ({ client: stranger } = await laptop.client('stranger'));
    const readKey = await laptop.client('reader');
    reader = readKey.client;
    const init = await ok(owner, 'initialize_context', {
      project_path: '/nowhere/shop',
      mode: 'none',
      files: [{ path: 'README.md', content: '# Shop\nPostgres 16 backs the cart.' }],
    });
    projectId = init.project_id as string;
    await runtime.access.setGrant(readKey.keyId, { kind: 'project', id: projectId }, 'read');
    branchId = (await ok(owner, 'create_branch', { project_id: projectId, branch_topic: 'checkout flow' }))
      .branch_id as string;
    await ok(owner, 'update_memory', {
      project_id: projectId,
      branch_id: branchId,
      role: 'assistant',
      content: 'Decided: the cart keeps Postgres 16.',
    });
  });

  afterAll(async () => {
    await laptop?.close();
    await bucket?.close();
  });

  const branchCount = async () =>
    (await ok(owner, 'list_branches', { project_id: projectId, format: 'json' })).total_branches;

  it('creates a verified snapshot, lists it, and restores it after later changes (undo included)', async () => {
    const snap = await ok(owner, 'create_snapshot', {
      project_id: projectId,
      description: 'Before refactor',
    });
    expect(snap).toMatchObject({ success: true, verified: true });
    expect(snap.snapshot_path).toBe(`projects/${projectId}/snapshots/${snap.snapshot_id}/`);
    const listed = await ok(reader, 'list_snapshots', { project_id: projectId, format: 'json' });
    expect(listed.snapshots).toEqual([
      expect.objectContaining({
        snapshot_id: snap.snapshot_id,
        description: 'Before refactor',
        verified: true,
        automatic: false,
      }),
    ]);
    const before = await branchCount();
    await ok(owner, 'create_branch', { project_id: projectId, branch_topic: 'later work' });
    expect(await branchCount()).toBe(Number(before) + 1);

    const restored = await ok(owner, 'restore_snapshot', {
      project_id: projectId,
      snapshot_id: snap.snapshot_id,
    });

    expect(restored).toMatchObject({ success: true, verified: true, restored_branches: before });
    expect(restored.restored_contexts).toBeGreaterThanOrEqual(0);
    expect(await branchCount()).toBe(before);
    const after = await ok(owner, 'list_snapshots', { project_id: projectId, format: 'json' });
    expect(after.total_snapshots).toBe(2);
    expect(after.snapshots).toContainEqual(
      expect.objectContaining({ snapshot_id: restored.backup_snapshot_id, automatic: true }),
    );
    await ok(owner, 'restore_snapshot', { project_id: projectId, snapshot_id: restored.backup_snapshot_id });
    expect(await branchCount()).toBe(Number(before) + 1);
  });

  it('backs a restore up with the snapshot that already holds the state, saving no copy of it', async () => {
    const total = async () =>
      Number((await ok(owner, 'list_snapshots', { project_id: projectId, format: 'json' })).total_snapshots);
    const a = await ok(owner, 'create_snapshot', { project_id: projectId, description: 'A' });
    await ok(owner, 'create_branch', { project_id: projectId, branch_topic: 'only in B' });
    const branchesInB = await branchCount();
    const b = await ok(owner, 'create_snapshot', { project_id: projectId, description: 'B' });
    const made = await total();

    // Nothing was written since B was made: B is the backup.
    const toA = await ok(owner, 'restore_snapshot', { project_id: projectId, snapshot_id: a.snapshot_id });
    expect(toA.backup_snapshot_id).toBe(b.snapshot_id);
    // The memory is A's now: undoing is backed up by A.
    const undo = await ok(owner, 'restore_snapshot', { project_id: projectId, snapshot_id: b.snapshot_id });
    expect(undo.backup_snapshot_id).toBe(a.snapshot_id);
    expect(await branchCount()).toBe(branchesInB);
    expect(await total()).toBe(made);

    // A write since the last restore: the state is in no snapshot, so a new automatic one keeps it.
    await ok(owner, 'create_branch', { project_id: projectId, branch_topic: 'after the undo' });
    const again = await ok(owner, 'restore_snapshot', { project_id: projectId, snapshot_id: a.snapshot_id });
    expect([a.snapshot_id, b.snapshot_id]).not.toContain(again.backup_snapshot_id);
    expect(await total()).toBe(made + 1);
    await ok(owner, 'restore_snapshot', { project_id: projectId, snapshot_id: again.backup_snapshot_id });
    expect(await branchCount()).toBe(Number(branchesInB) + 1);
  });

  it('pushes encrypted to the bucket, then finds both sides up to date', async () => {
    const pushed = await ok(owner, 'sync_to_cloud', { project_id: projectId });
    expect(pushed).toMatchObject({ success: true, status: 'uploaded', encrypted: true });
    expect(pushed.cloud_path).toBe(`s3://${BUCKET}/projects/${projectId}/snapshots/${pushed.snapshot_id}/`);
    expect(pushed.uploaded_bytes).toBeGreaterThan(0);
    expect(await ok(owner, 'sync_to_cloud', { project_id: projectId })).toMatchObject({
      status: 'up_to_date',
      uploaded_bytes: 0,
    });
    expect(await ok(owner, 'sync_from_cloud', { project_id: projectId })).toMatchObject({
      status: 'up_to_date',
      downloaded_bytes: 0,
    });
  });

  it('refuses a pull over unpushed changes with CONFLICT, and pulls with force', async () => {
    await ok(owner, 'sync_to_cloud', { project_id: projectId, force: true });
    const before = await branchCount();
    await ok(owner, 'create_branch', { project_id: projectId, branch_topic: 'not pushed' });

    const refused = await call(owner, 'sync_from_cloud', { project_id: projectId });
    expect(errorOf(refused)).toMatchObject({ code: 'CONFLICT' });
    expect(errorOf(refused).message).toContain('force');
    expect(await branchCount()).toBe(Number(before) + 1);

    const pulled = await ok(owner, 'sync_from_cloud', { project_id: projectId, force: true });
    expect(pulled).toMatchObject({ status: 'restored', decrypted: true, restored_branches: before });
    expect(await branchCount()).toBe(before);
  });

  it('needs write on the project to snapshot, restore or sync, and read to list', async () => {
    const snapshotId = 'snap_20260101T000000000_00000000';
    for (const [name, args] of [
      ['create_snapshot', { project_id: projectId }],
      ['restore_snapshot', { project_id: projectId, snapshot_id: snapshotId }],
      ['sync_to_cloud', { project_id: projectId }],
      ['sync_from_cloud', { project_id: projectId }],
    ] as const) {
      expect({ name, code: errorOf(await call(reader, name, args)).code }).toEqual({
        name,
        code: 'FORBIDDEN',
      });
      expect({ name, code: errorOf(await call(stranger, name, args)).code }).toEqual({
        name,
        code: 'FORBIDDEN',
      });
    }
    expect(errorOf(await call(stranger, 'list_snapshots', { project_id: projectId })).code).toBe('FORBIDDEN');
  });

  it('lists snapshots a page at a time, newest first, with the total and a cursor', async () => {
    const { project_id } = await ok(owner, 'initialize_context', {
      project_path: '/nowhere/pages',
      mode: 'none',
    });
    const made: string[] = [];
    for (let i = 0; i < 25; i += 1)
      made.push(
        (await ok(owner, 'create_snapshot', { project_id, description: `#${i}` })).snapshot_id as string,
      );
    const ids = (page: Structured) => (page.snapshots as { snapshot_id: string }[]).map((s) => s.snapshot_id);

    const first = await ok(owner, 'list_snapshots', { project_id, format: 'json' });
    const rest = await ok(owner, 'list_snapshots', {
      project_id,
      cursor: first.next_cursor,
      format: 'json',
    });
    const small = await ok(owner, 'list_snapshots', { project_id, limit: 3, format: 'json' });
    const stale = await call(owner, 'list_snapshots', {
      project_id,
      cursor: 'snap_20260101T000000000_00000000',
    });

    expect(first).toMatchObject({ total_snapshots: 25, next_cursor: made[5] });
    expect([...ids(first), ...ids(rest)]).toEqual([...made].reverse());
    expect(rest).toMatchObject({ total_snapshots: 25 });
    expect(rest.next_cursor).toBeUndefined();
    expect(ids(small)).toEqual([made[24], made[23], made[22]]);
    expect(errorOf(stale)).toMatchObject({ code: 'INVALID_INPUT', field: 'cursor' });
  });

  it('says what a snapshot id looks like, and which ids exist', async () => {
    const malformed = await call(owner, 'restore_snapshot', { project_id: projectId, snapshot_id: 'latest' });
    expect(errorOf(malformed)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.stringify(errorOf(malformed))).toContain('snapshot_id');
    expect(JSON.stringify(errorOf(malformed))).toContain('snap_20261123T221500123_9f86d081');
    const missing = await call(owner, 'restore_snapshot', {
      project_id: projectId,
      snapshot_id: 'snap_20260101T000000000_00000000',
    });
    expect(errorOf(missing)).toMatchObject({ code: 'NOT_FOUND' });
    expect(errorOf(missing).message).toContain('list_snapshots');
  });

  it('answers NETWORK_ERROR, retryable, when the bucket cannot be reached', async () => {
    const unreachable = // The discard port: nothing listens there.
      s3rverClient('http://127.0.0.1:9', { maxAttempts: 1 });
    const cloud = {
      blobs: new S3BlobStore({ client: unreachable, bucket: BUCKET }),
      encryption: new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32)))),
      location: `s3://${BUCKET}`,
    };
    const offline = await served(await startTestRuntime({ memorySync: { cloud } }));
    try {
      const { client } = await offline.client('owner');
      const init = await ok(client, 'initialize_context', { project_path: '/nowhere/y', mode: 'none' });
      const result = await call(client, 'sync_to_cloud', { project_id: init.project_id });
      expect(errorOf(result)).toMatchObject({ code: 'NETWORK_ERROR' });
      expect(errorOf(result).message).toContain(`s3://${BUCKET}`);
    } finally {
      await offline.close();
      unreachable.destroy();
    }
  });

  it('says cloud sync is not configured on a server without a bucket, and how to configure it', async () => {
    const bare = await served(await startTestRuntime());
    try {
      const { client } = await bare.client('owner');
      const init = await ok(client, 'initialize_context', { project_path: '/nowhere/x', mode: 'none' });
      for (const tool of ['sync_to_cloud', 'sync_from_cloud']) {
        const refusal = errorOf(await call(client, tool, { project_id: init.project_id }));
        expect(refusal.code, tool).toBe('NOT_CONFIGURED');
        expect(refusal.message).toContain('Cloud sync is not configured');
        expect(refusal.message).toContain('MERIDIAN_MEMORY_SYNC_BUCKET');
      }
    } finally {
      await bare.close();
    }
  });
  it('does not count compressing an idle context, or loading it back, as a change to sync', async () => {
    let now = Date.parse('2026-11-24T09:00:00Z');
    const idle = await served(
      await startTestRuntime({ memorySync: { cloud: bucket.cloud }, clock: { now: () => new Date(now) } }),
    );
    try {
      const { client } = await idle.client('owner');
      const project = (
        await ok(client, 'initialize_context', { project_path: '/nowhere/idle', mode: 'none' })
      ).project_id;
      const branch = (await ok(client, 'create_branch', { project_id: project, branch_topic: 'billing' }))
        .branch_id;
      for (const content of ['Invoices are issued on the 1st.', 'Refunds go back to the original card.']) {
        await ok(client, 'update_memory', { project_id: project, branch_id: branch, role: 'user', content });
      }
      expect(await ok(client, 'sync_to_cloud', { project_id: project })).toMatchObject({
        status: 'uploaded',
      });

      now += 31 * 60_000; // idle: the next read compresses the context
      const summary = await ok(client, 'get_active_summary', { project_id: project, branch_id: branch });
      expect(summary.status).toBe('compressed');
      expect(await ok(client, 'sync_from_cloud', { project_id: project })).toMatchObject({
        status: 'up_to_date',
      });
      expect(await ok(client, 'sync_to_cloud', { project_id: project })).toMatchObject({
        status: 'up_to_date',
      });

      const loaded = await ok(client, 'load_context', { project_id: project, branch_id: branch });
      expect(loaded.message).toBe('Decompressed and restored.');
      expect(await ok(client, 'sync_from_cloud', { project_id: project })).toMatchObject({
        status: 'up_to_date',
      });

      // A real change still counts.
      await ok(client, 'update_memory', {
        project_id: project,
        branch_id: branch,
        role: 'user',
        content: 'VAT is 19%.',
      });
      expect(errorOf(await call(client, 'sync_from_cloud', { project_id: project }))).toMatchObject({
        code: 'CONFLICT',
      });
    } finally {
      await idle.close();
    }
  });
});
