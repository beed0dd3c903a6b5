import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../../../lambdas/adapters/files/file-blob-store.js';
import { LOCAL_OWNER } from '../../../../lambdas/core/access/rights.js';
import type { HybridSearchOptions } from '../../../../lambdas/core/memory/search/hybrid-index.js';
import { localEmbedder } from '../../../../lambdas/core/memory/search/local-embedder.js';
import { MemorySearch } from '../../../../lambdas/core/memory/search/memory-search.js';
import { IDLE_COMPRESSION_MS } from '../../../../lambdas/core/memory/store/memory-store.js';
import type { Clock } from '../../../../lambdas/core/ports/index.js';
import { projectResource } from '../../../../lambdas/core/rules/project-access.js';
import { routeHttpRequest } from '../../../../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../../../../lambdas/runtime/node-http-server.js';
import { FIXTURE_QUERIES, fixtureItems } from '../../../fixtures/memory-search/corpus.js';
import { type CallToolResult, connectHttpClient } from '../../../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../../../support/test-runtime.js';

const DEFAULTS = { top_k: 10, min_score: 0.3 };
/** The fixture's texts: the first SEEDED are written before the index is first built. */
const TEXTS = fixtureItems('p').map((item) => item.text);
const SEEDED = 150;

describe('search index after writes: updated, never different from a fresh build', () => {
  let runtime: TestRuntime;
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let client: Client;
  let scratch: string;
  let now = Date.parse('2026-11-23T09:00:00Z');
  const clock: Clock = { now: () => new Date(now) };
  let projectId: string;
  const branches: string[] = [];
  const written: string[] = [];
  let nextText = SEEDED;

  async function updateMemory(args: Record<string, unknown>): Promise<string> {
    const result = (await client.callTool({
      name: 'update_memory',
      arguments: { project_id: projectId, role: 'assistant', ...args },
    })) as CallToolResult;
    if (result.isError) throw new Error(`update_memory failed: ${JSON.stringify(result.content)}`);
    return (result.structuredContent as { entry_id: string }).entry_id;
  }

  /** A few writes over MCP: new entries on both branches, and an earlier entry replaced. */
  async function someWrites(round: number): Promise<void> {
    for (let i = 0; i < 3; i += 1) {
      const branch = branches[(round + i) % branches.length]!;
      written.push(await updateMemory({ branch_id: branch, content: TEXTS[nextText++ % TEXTS.length]! }));
    }
    const replaced = written[(round * 7) % written.length]!;
    const branch = (await runtime.memory.memory.items(projectId)).find(
      (item) => item.item_id === replaced,
    )!.branch_id;
    await updateMemory({ branch_id: branch, entry_id: replaced, content: TEXTS[nextText++ % TEXTS.length]! });
  }

  /** Every fixture query, plain, on one branch, and deep: `search` answers as an index built from scratch now. */
  async function expectSameAsFreshBuild(search: MemorySearch): Promise<void> {
    const dir = await mkdtemp(join(scratch, 'fresh-'));
    const fresh = new MemorySearch({
      reader: runtime.memory.memory,
      blobs: new FileBlobStore(dir),
      embedder: localEmbedder(),
      clock,
    });
    const variants: HybridSearchOptions[] = [
      DEFAULTS,
      { ...DEFAULTS, branch_id: branches[1]! },
      { top_k: 60, min_score: 0 },
    ];
    for (const { query } of FIXTURE_QUERIES) {
      for (const options of variants) {
        const [answer, expected] = await Promise.all([
          search.search(projectId, query, options),
          fresh.search(projectId, query, options),
        ]);
        expect({ query, results: answer.results, total: answer.total_results }).toEqual({
          query,
          results: expected.results,
          total: expected.total_results,
        });
      }
    }
    expect((await fresh.search(projectId, 'anything', DEFAULTS)).index_source).toBe('memory');
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'memsearch-incremental-'));
    runtime = await startTestRuntime({ clock });
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      handle: (request) => routeHttpRequest(request, runtime),
      logger: runtime.logger,
    });
    const key = await runtime.newKey('writer');
    client = await connectHttpClient(`${server.url}/mcp`, undefined, {
      authorization: `Bearer ${key.token}`,
    });
    projectId = (await runtime.rules.projects.create({ name: 'Shop' })).project_id;
    await runtime.access.setGrant(key.keyId, projectResource(projectId), 'write');
    for (const topic of ['Payments', 'Auth']) {
      branches.push((await runtime.memory.createBranch(LOCAL_OWNER, projectId, { topic })).branch_id);
    }
    for (const [i, content] of TEXTS.slice(0, SEEDED).entries()) {
      const { entry } = await runtime.memory.updateMemory(LOCAL_OWNER, projectId, {
        branch_id: branches[i % 2]!,
        role: 'user',
        content,
      });
      written.push(entry.entry_id);
    }
    expect((await runtime.search.index.search(projectId, 'redis eviction', DEFAULTS)).index_source).toBe(
      'built',
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await runtime?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('updates the cached index after each round of writes, and ranks exactly as a fresh build', async () => {
    for (let round = 0; round < 4; round += 1) {
      await someWrites(round);

      const first = await runtime.search.index.search(projectId, 'redis eviction', DEFAULTS);

      expect(first.index_source).toBe('updated');
      await expectSameAsFreshBuild(runtime.search.index);
    }
  }, 120_000);

  it('updates the stored index of the previous revision in a cold process, with the same answers', async () => {
    await someWrites(5);
    const cold = new MemorySearch({
      reader: runtime.memory.memory,
      blobs: runtime.memoryBlobs,
      embedder: localEmbedder(),
      clock,
    });

    expect((await cold.search(projectId, 'redis eviction', DEFAULTS)).index_source).toBe('updated');
    await expectSameAsFreshBuild(cold);
  }, 60_000);

  it('updates the index when contexts are compressed (entries move into a body, summaries appear)', async () => {
    now += IDLE_COMPRESSION_MS + 1000;
    for (const branch of branches)
      expect(await runtime.memory.memory.compressIfIdle(projectId, branch)).toBe(true);
    const kinds = new Set((await runtime.memory.memory.items(projectId)).map((item) => item.kind));
    expect(kinds).toEqual(new Set(['entry', 'summary']));

    expect((await runtime.search.index.search(projectId, 'redis eviction', DEFAULTS)).index_source).toBe(
      'updated',
    );
    await expectSameAsFreshBuild(runtime.search.index);
  }, 60_000);
});
