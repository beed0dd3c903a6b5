import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { type DocumentStore, fixedClock, type RandomSource } from '../../lambdas/core/ports/index.js';
import { nodeRandom } from '../../lambdas/runtime/node-random.js';
import { type CallToolResult, connectInMemory, errorOf } from '../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/** Counts the rows `store` deletes and the store calls that do it, until stopped. */
function countingDeletes(store: DocumentStore) {
  const { delete: single, batchDelete } = store;
  const counts = { rows: 0, calls: 0 };
  store.delete = (key, options) => {
    counts.rows++;
    counts.calls++;
    return single.call(store, key, options);
  };
  store.batchDelete = (keys) => {
    counts.rows += keys.length;
    counts.calls++;
    return batchDelete.call(store, keys);
  };
  return {
    get rows() {
      return counts.rows;
    },
    get calls() {
      return counts.calls;
    },
    stop() {
      store.delete = single;
      store.batchDelete = batchDelete;
    },
  };
}

/**
 * Inputs a long fuzz run of the memory tools (test/mcp/tool-fuzz.test.ts) found mishandled,
 * each called through the real server as an agent would.
 */
describe('memory tools on inputs a long fuzz run found', () => {
  let runtime: TestRuntime;
  let client: Client;
  let projectId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ projectFolders: null });
    projectId = (await runtime.rules.projects.create({ name: 'Regressions' })).project_id;
    client = await connectInMemory(runtime, 'regressions');
  });

  afterAll(async () => {
    await client?.close();
    await runtime?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  describe('an unlinked git branch of the longest allowed name', () => {
    const longBranch = `feature/${'g'.repeat(192)}`;

    it.each([
      ['get_active_summary', {}],
      ['search_context', { query: 'retry' }],
    ])('%s names it without repeating all 200 characters', async (tool, extra) => {
      const result = await call(tool, { project_id: projectId, git_branch: longBranch, ...extra });

      const error = errorOf(result);
      expect(error.code).toBe('BRANCH_NOT_FOUND');
      expect(error.message).toContain('feature/ggg');
      expect(JSON.stringify(error)).not.toContain(longBranch);
    });
  });

  it('restore_snapshot deletes nothing: the replaced memory waits for the idle sweep', async () => {
    // A long fuzz run found restores (restore_snapshot, sync_from_cloud) past 5 s at a few
    // thousand entries, most of it deleting the old rows one at a time. Batches halved that; now
    // the idle sweep drops the replaced generation (in batches: idle-compression-sweep-suite.ts).
    const { branch_id } = await runtime.memory.createBranch(LOCAL_OWNER, projectId, { topic: 'Restore' });
    for (let n = 1; n <= 60; n++) {
      await runtime.memory.updateMemory(LOCAL_OWNER, projectId, {
        branch_id,
        role: 'user',
        content: `Entry ${n}.`,
      });
    }
    const { snapshot_id } = await runtime.snapshots.create(LOCAL_OWNER, projectId);
    const deletes = countingDeletes(runtime.store);

    const result = await call('restore_snapshot', { project_id: projectId, snapshot_id });

    expect(result.isError).toBeFalsy();
    expect(deletes).toMatchObject({ rows: 0, calls: 0 });
    deletes.stop();
  });

  it('accept_suggestions names a long unknown context id without repeating it whole', async () => {
    const session = await runtime.insights.suggestContexts(LOCAL_OWNER, {
      project_id: projectId,
      current_context: 'retry',
      top_k: 5,
    });
    const longId = 'c'.repeat(300);

    const result = await call('accept_suggestions', {
      project_id: projectId,
      session_id: session.session_id,
      context_ids: [longId],
    });

    const error = errorOf(result);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('(300 characters)');
    expect(JSON.stringify(error)).not.toContain(longId);
  });
});

describe('create_branch when a new id clashes', () => {
  // Branch ids end in four random hex digits: the first two ids drawn here are the same.
  let drawn = 0;
  const clashingTails: RandomSource = {
    ...nodeRandom,
    bytes: (length) => (length === 2 && drawn++ < 2 ? new Uint8Array(2) : nodeRandom.bytes(length)),
  };
  let runtime: TestRuntime;
  let client: Client;

  beforeAll(async () => {
    runtime = await startTestRuntime({
      projectFolders: null,
      clock: fixedClock('2026-03-01T12:00:00Z'),
      random: clashingTails,
    });
    client = await connectInMemory(runtime, 'regressions');
  });

  afterAll(async () => {
    await client?.close();
    await runtime?.close();
  });

  it('creates the second branch of a topic in the same second under another id', async () => {
    const projectId = (await runtime.rules.projects.create({ name: 'Clash' })).project_id;
    const create = async () =>
      (await client.callTool({
        name: 'create_branch',
        arguments: { project_id: projectId, branch_topic: 'Fuzz topic' },
      })) as CallToolResult;

    const first = await create();
    const second = await create();

    expect(first.isError).toBeFalsy();
    expect(second.isError).toBeFalsy();
    const ids = [first, second].map(
      (result) => (result.structuredContent as { branch_id: string }).branch_id,
    );
    expect(ids[0]).toBe('fuzz_topic_20260301_120000_0000');
    expect(ids[1]).not.toBe(ids[0]);
    expect(await runtime.memory.memory.listBranches(projectId)).toHaveLength(2);
  });
});
