import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeGzip } from '../../../lambdas/adapters/compression/node-gzip.js';
import { FileBlobStore } from '../../../lambdas/adapters/files/file-blob-store.js';
import { snapshotKeys } from '../../../lambdas/core/memory/snapshots/snapshot-vault.js';
import { type CallToolResult, connectInMemory, errorOf } from '../../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/**
 * A snapshot a newer Meridian wrote (another `meridian-snapshot/<n>` format), met by restore_snapshot:
 * refused as UNSUPPORTED_FORMAT with the way out (upgrade), not as damage, and nothing changed.
 */
describe('restore_snapshot of a snapshot in a newer format', () => {
  let runtime: TestRuntime;
  let client: Client;
  let blobDir: string;

  beforeAll(async () => {
    blobDir = await mkdtemp(join(tmpdir(), 'meridian-format-'));
    runtime = await startTestRuntime({ projectFolders: null, memoryBlobs: new FileBlobStore(blobDir) });
    client = await connectInMemory(runtime, 'format');
  });

  afterAll(async () => {
    await client?.close();
    await runtime?.close();
    await rm(blobDir, { recursive: true, force: true });
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const ok = async (name: string, args: Record<string, unknown>) => {
    const result = await call(name, args);
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, unknown>;
  };

  /** Rewrites the stored manifest as a newer Meridian would have written it, under the same key. */
  async function markNewerFormat(projectId: string, snapshotId: string): Promise<void> {
    const path = join(blobDir, `${snapshotKeys(projectId, snapshotId).manifest}~`);
    const context = { project_id: projectId, snapshot_id: snapshotId };
    const plaintext = await nodeGzip.decompress(
      await runtime.encryption.decrypt(await readFile(path), context),
    );
    const newer = new TextDecoder()
      .decode(plaintext)
      .replace('"format":"meridian-snapshot/1"', '"format":"meridian-snapshot/2"');
    const stored = await runtime.encryption.encrypt(
      await nodeGzip.compress(new TextEncoder().encode(newer)),
      context,
    );
    await rm(path);
    await writeFile(path, stored);
  }

  it('is refused with UNSUPPORTED_FORMAT and the advice to upgrade, and changes nothing', async () => {
    const projectId = (await runtime.rules.projects.create({ name: 'Format' })).project_id;
    const { branch_id } = await ok('create_branch', { project_id: projectId, branch_topic: 'Checkout' });
    await ok('update_memory', { project_id: projectId, branch_id, role: 'user', content: 'Before.' });
    const { snapshot_id } = await ok('create_snapshot', { project_id: projectId });
    await ok('update_memory', { project_id: projectId, branch_id, role: 'user', content: 'After.' });
    await markNewerFormat(projectId, snapshot_id as string);
    const listedBefore = await ok('list_snapshots', { project_id: projectId });

    const error = errorOf(await call('restore_snapshot', { project_id: projectId, snapshot_id }));

    expect(error.code).toBe('UNSUPPORTED_FORMAT');
    expect(error.message).toContain('newer version of Meridian');
    expect(error.message).toContain('Upgrade');
    expect(error).toMatchObject({ snapshot_id, reason: 'FORMAT_UNSUPPORTED' });
    const summary = await ok('get_active_summary', { project_id: projectId, branch_id });
    expect(summary).toMatchObject({ message_count: 2 });
    expect(await ok('list_snapshots', { project_id: projectId })).toEqual(listedBefore);
  });
});
