import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, errorOf, okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/** Small, so the test fills a project in a few calls; deployments default to 20,000. */
const CAP = 6;

/**
 * Issue 18, item 3: every memory tool reads a project's whole memory (search index, grounding,
 * graph), so what a project may hold is capped (ADR 0008, decision 11). Over HTTP with the SDK's
 * real Client, on dynalite: writes past the cap are refused with QUOTA_EXCEEDED before anything
 * is stored, reads go on working, and the cap is per project.
 */
describe('the cap on what a project’s memory holds', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let owner: Client;
  let projectId: string;
  let branchId: string;

  const ok = (name: string, args: Record<string, unknown>) => okTool(owner, name, args);
  const refused = async (name: string, args: Record<string, unknown>) =>
    errorOf(await callTool(owner, name, args));
  const entryCount = async (project: string, branch: string) =>
    (await ok('load_context', { project_id: project, branch_id: branch })).metadata.message_count;

  beforeAll(async () => {
    runtime = await startTestRuntime({ memoryItemsCap: CAP });
    served = await serveRuntime(runtime);
    owner = (await served.connect('owner')).client;
    // 2 files + 1 branch + 3 entries: the project is full.
    projectId = (
      await ok('initialize_context', {
        project_path: '/srv/full',
        mode: 'none',
        files: [
          { path: 'README.md', content: 'The shop sells tea.' },
          { path: 'src/index.ts', content: 'export const answer = 42;' },
        ],
      })
    ).project_id;
    branchId = (await ok('create_branch', { project_id: projectId, branch_topic: 'Tea' })).branch_id;
    for (const content of [
      'Green tea ships from Shizuoka.',
      'Black tea ships from Assam.',
      'Oolong is seasonal.',
    ])
      await ok('update_memory', { project_id: projectId, branch_id: branchId, role: 'user', content });
  }, 60_000);

  afterAll(() => served?.close());

  it('refuses an entry past the cap, says the cap, the count and what to do, and stores nothing', async () => {
    const error = await refused('update_memory', {
      project_id: projectId,
      branch_id: branchId,
      role: 'user',
      content: 'Pu-erh is aged.',
    });
    expect(error.code).toBe('QUOTA_EXCEEDED');
    expect(error.message).toContain(`${CAP}`);
    expect(error.message).toMatch(/delete|snapshot|new project/i);
    expect(error).toMatchObject({ cap: CAP, stored: CAP, project_id: projectId });
    expect(await entryCount(projectId, branchId)).toBe(3);
  });

  it('refuses a new branch and new files past the cap, storing neither', async () => {
    expect((await refused('create_branch', { project_id: projectId, branch_topic: 'Coffee' })).code).toBe(
      'QUOTA_EXCEEDED',
    );
    const files = await refused('initialize_context', {
      project_path: '/srv/full',
      mode: 'none',
      files: [{ path: 'docs/coffee.md', content: 'Coffee is not sold.' }],
    });
    expect(files.code).toBe('QUOTA_EXCEEDED');
    const branches = (await ok('list_branches', { project_id: projectId })).branches as unknown[];
    expect(branches).toHaveLength(1);
    const found = await ok('search_context', { project_id: projectId, query: 'coffee' });
    expect(JSON.stringify(found)).not.toContain('docs/coffee.md');
  });

  it('keeps reads working on a full project', async () => {
    const found = await ok('search_context', { project_id: projectId, query: 'green tea Shizuoka' });
    expect(JSON.stringify(found)).toContain('Shizuoka');
    expect(await entryCount(projectId, branchId)).toBe(3);
  });

  it('counts per project: another project still takes writes', async () => {
    const other = (await ok('initialize_context', { project_path: '/srv/other', mode: 'none' })).project_id;
    const branch = (await ok('create_branch', { project_id: other, branch_topic: 'Other' })).branch_id;
    await ok('update_memory', { project_id: other, branch_id: branch, role: 'user', content: 'Fine.' });
    expect(await entryCount(other, branch)).toBe(1);
  });

  it('refuses to restore a state larger than the cap, keeping the memory as it was', async () => {
    // A server with room takes a snapshot of 8 entries, then goes back to a smaller one…
    const roomy = await startTestRuntime({
      endpoint: runtime.endpoint,
      tableName: runtime.tableName,
      memoryBlobs: runtime.memoryBlobs,
      encryption: runtime.encryption,
    });
    const roomyServed = await serveRuntime(roomy);
    try {
      const key = await roomy.newKey('roomy');
      const wide = (await roomyServed.connectToken(key.token)) as Client;
      const okWide = (name: string, args: Record<string, unknown>) => okTool(wide, name, args);
      const project = (await okWide('initialize_context', { project_path: '/srv/big', mode: 'none' }))
        .project_id;
      const branch = (await okWide('create_branch', { project_id: project, branch_topic: 'Big' })).branch_id;
      await okWide('update_memory', {
        project_id: project,
        branch_id: branch,
        role: 'user',
        content: 'First note.',
      });
      const small = (await okWide('create_snapshot', { project_id: project })).snapshot_id;
      for (let i = 2; i <= 8; i++)
        await okWide('update_memory', {
          project_id: project,
          branch_id: branch,
          role: 'user',
          content: `Note ${i}.`,
        });
      const big = (await okWide('create_snapshot', { project_id: project })).snapshot_id;
      await okWide('restore_snapshot', { project_id: project, snapshot_id: small });

      // …and this server, capped at 6, refuses the big one: the memory keeps its one entry.
      const capped = await served.connectToken(key.token);
      const error = errorOf(
        await callTool(capped, 'restore_snapshot', { project_id: project, snapshot_id: big }),
      );
      expect(error.code).toBe('QUOTA_EXCEEDED');
      expect(error).toMatchObject({ cap: CAP, adding: 0 });
      expect(error.stored).toBeGreaterThanOrEqual(9); // the branch and its 8 entries
      const loaded = await okTool(capped, 'load_context', { project_id: project, branch_id: branch });
      expect(loaded.metadata.message_count).toBe(1);
    } finally {
      await roomyServed.close();
    }
  }, 60_000);
  it('refuses an entry whose count was this server’s own when another server filled the project meanwhile', async () => {
    // A second server on the same table with the same cap. This server writes first, so it keeps
    // the count (2 records) and appends the next entry without reading the pointer…
    const other = await startTestRuntime({
      endpoint: runtime.endpoint,
      tableName: runtime.tableName,
      memoryBlobs: runtime.memoryBlobs,
      encryption: runtime.encryption,
      memoryItemsCap: CAP,
    });
    const otherServed = await serveRuntime(other);
    try {
      const key = await runtime.newKey('writer');
      const here = await served.connectToken(key.token);
      const there = await otherServed.connectToken(key.token);
      const project = (await okTool(here, 'initialize_context', { project_path: '/srv/race', mode: 'none' }))
        .project_id;
      const branch = (await okTool(here, 'create_branch', { project_id: project, branch_topic: 'Race' }))
        .branch_id;
      const note = (content: string) => ({ project_id: project, branch_id: branch, role: 'user', content });
      await okTool(here, 'update_memory', note('Written here first.'));
      // …while the other server takes the project to the cap: 1 branch + 5 entries.
      for (let i = 2; i <= 5; i++) await okTool(there, 'update_memory', note(`Written there, ${i}.`));
      const error = errorOf(await callTool(here, 'update_memory', note('One too many.')));
      expect(error.code).toBe('QUOTA_EXCEEDED');
      expect(error).toMatchObject({ cap: CAP, stored: CAP, project_id: project });
      const loaded = await okTool(there, 'load_context', { project_id: project, branch_id: branch });
      expect(loaded.metadata.message_count).toBe(5);
    } finally {
      await otherServed.close();
    }
  }, 60_000);
});
