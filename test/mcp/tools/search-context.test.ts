import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFolder } from '../../../lambdas/core/memory/search/memory-search.js';
import { routeHttpRequest } from '../../../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../../../lambdas/runtime/node-http-server.js';
import { FIXTURE_QUERIES, fixtureItems, recallAt5 } from '../../fixtures/memory-search/corpus.js';
import { type CallToolResult, connectHttpClient, errorOf } from '../../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

type Structured = Record<string, unknown>;
interface Hit {
  item_id: string;
  branch_id: string;
  kind: string;
  category: string;
  score: number;
  snippet: string;
  created_at: string;
}
interface Answer {
  success: boolean;
  results: Hit[];
  total_results: number;
  search_time_ms: number;
  branch_id?: string;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Structured;
}

/** Runs `work` over `values`, `width` at a time. */
async function inBatches<T>(values: readonly T[], width: number, work: (value: T) => Promise<void>) {
  for (let from = 0; from < values.length; from += width)
    await Promise.all(values.slice(from, from + width).map(work));
}

describe('search_context over HTTP', () => {
  let runtime: TestRuntime;
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  const clients: Client[] = [];
  let owner: Client;
  let reader: Client;
  let stranger: Client;
  let projectId: string;
  /** Fixture item id → the entry id update_memory gave it. */
  const entryOf = new Map<string, string>();
  /** Entry id → the category update_memory assigned. */
  const categoryOf = new Map<string, string>();
  /** Fixture branch name → memory branch id. */
  const branchOf = new Map<string, string>();
  const search = async (client: Client, args: Record<string, unknown>) =>
    (await ok(client, 'search_context', {
      project_id: projectId,
      format: 'json',
      ...args,
    })) as unknown as Answer;

  beforeAll(async () => {
    runtime = await startTestRuntime({ projectFolders: null });
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      handle: (request) => routeHttpRequest(request, runtime),
      logger: runtime.logger,
    });
    const connect = async (label: string) => {
      const key = await runtime.newKey(label);
      const client = await connectHttpClient(`${server.url}/mcp`, undefined, {
        authorization: `Bearer ${key.token}`,
      });
      clients.push(client);
      return { client, keyId: key.keyId };
    };
    ({ client: owner } = await connect('owner'));
    ({ client: stranger } = await connect('stranger'));
    const readKey = await connect('reader');
    reader = readKey.client;
    const init = await ok(owner, 'initialize_context', {
      project_path: '/srv/shop',
      mode: 'none',
      files: [
        { path: 'docs/runbook.md', content: '# Runbook\nPage the on-call engineer through PagerDuty.' },
      ],
    });
    projectId = init.project_id as string;
    await runtime.access.setGrant(readKey.keyId, { kind: 'project', id: projectId }, 'read');

    const items = fixtureItems(projectId);
    for (const name of new Set(items.map((item) => item.branch_id))) {
      const created = await ok(owner, 'create_branch', { project_id: projectId, branch_topic: name });
      branchOf.set(name, created.branch_id as string);
    }
    await inBatches(items, 8, async (item) => {
      const saved = await ok(owner, 'update_memory', {
        project_id: projectId,
        branch_id: branchOf.get(item.branch_id),
        role: 'assistant',
        content: item.text,
      });
      entryOf.set(item.item_id, saved.entry_id as string);
      categoryOf.set(saved.entry_id as string, saved.ontology_category as string);
    });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await server.close();
    await runtime.close();
  });

  it('finds the relevant memories of the fixture queries in its top 5 (recall@5 ≥ 0.95)', async () => {
    const fixtureOf = new Map([...entryOf].map(([fixture, entry]) => [entry, fixture]));

    const recall = await recallAt5(async (query) => {
      const { results } = await search(reader, { query, top_k: 5, min_score: 0 });
      return results.map((hit) => fixtureOf.get(hit.item_id) ?? hit.item_id);
    });

    console.info(`search_context recall@5 = ${recall.toFixed(3)} over ${FIXTURE_QUERIES.length} queries`);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it('answers the best match first, with its branch, category, a snippet and the time taken', async () => {
    const answer = await search(reader, { query: 'customers charged twice on double click' });

    expect(answer.success).toBe(true);
    expect(answer.results[0]).toMatchObject({
      item_id: entryOf.get('pay-2'),
      branch_id: branchOf.get('feature-billing'),
      kind: 'entry',
      category: categoryOf.get(entryOf.get('pay-2')!),
    });
    expect(answer.results[0]!.snippet).toContain('charged twice');
    expect(answer.results[0]!.score).toBeGreaterThan(0.9);
    expect(answer.results.length).toBeLessThanOrEqual(10);
    expect(answer.search_time_ms).toBeGreaterThanOrEqual(0);
  });

  it('keeps the index in the blob store, one per project', async () => {
    const stored = await runtime.memoryBlobs.list({ prefix: indexFolder(projectId) });

    expect(stored.blobs).toHaveLength(1);
  });

  it('applies top_k and min_score, and counts every match above min_score', async () => {
    const few = await search(reader, { query: 'cache invalidation ttl', top_k: 2, min_score: 0 });
    const strong = await search(reader, { query: 'cache invalidation ttl', top_k: 100, min_score: 0.7 });

    expect(few.results).toHaveLength(2);
    expect(few.total_results).toBeGreaterThan(strong.total_results);
    expect(strong.results.every((hit) => hit.score >= 0.7)).toBe(true);
  });

  it('searches files given to initialize_context too', async () => {
    const answer = await search(reader, { query: 'who do we page on call' });

    expect(answer.results[0]).toMatchObject({ kind: 'file', snippet: expect.stringContaining('PagerDuty') });
  });

  it('narrows to one branch, named by branch_id or by a linked git branch', async () => {
    const ui = branchOf.get('feature-ui')!;
    await ok(owner, 'link_git_branch', {
      project_id: projectId,
      cortex_branch_id: ui,
      git_branch_name: 'feature/ui',
    });
    const query = 'dates shown one day early';

    const everywhere = await search(reader, { query, min_score: 0 });
    const byId = await search(reader, { query, branch_id: ui, min_score: 0 });
    const byGit = await search(reader, { query, git_branch: 'feature/ui', min_score: 0 });

    expect(everywhere.results.some((hit) => hit.branch_id !== ui)).toBe(true);
    expect(byId.results.length).toBeGreaterThan(0);
    expect(byId.results.every((hit) => hit.branch_id === ui)).toBe(true);
    expect(byGit).toEqual({ ...byId, search_time_ms: byGit.search_time_ms });
    expect(byGit.branch_id).toBe(ui);
  });

  it('filters by ontology category', async () => {
    const answer = await search(reader, {
      query: 'database connection',
      filter_category: 'bug_fix',
      min_score: 0,
    });

    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.every((hit) => hit.category === 'bug_fix')).toBe(true);
  });

  it('finds a memory written a moment ago', async () => {
    await ok(owner, 'update_memory', {
      project_id: projectId,
      branch_id: branchOf.get('main'),
      role: 'user',
      content: 'We decided to call the next release Zeppelin.',
    });

    const answer = await search(reader, { query: 'zeppelin release name' });

    expect(answer.results[0]!.snippet).toContain('Zeppelin');
  });

  it('refuses a key without a grant on the project', async () => {
    const result = await call(stranger, 'search_context', { project_id: projectId, query: 'cache' });

    expect(errorOf(result).code).toBe('FORBIDDEN');
  });

  it('refuses a key without a grant before looking at branches, so it learns none of them', async () => {
    // Arrange: a real branch and an unknown one, a linked git branch and an unlinked one
    const ui = branchOf.get('feature-ui')!;
    await ok(owner, 'link_git_branch', {
      project_id: projectId,
      cortex_branch_id: ui,
      git_branch_name: 'feature/ui',
    });

    // Act
    const answers = await Promise.all(
      [
        { branch_id: ui },
        { branch_id: 'br_nope' },
        { git_branch: 'feature/ui' },
        { git_branch: 'feature/none' },
      ].map((selector) =>
        call(stranger, 'search_context', { project_id: projectId, query: 'cache', ...selector }),
      ),
    );

    // Assert: the same refusal whatever exists
    expect(answers.map((answer) => errorOf(answer).code)).toEqual([
      'FORBIDDEN',
      'FORBIDDEN',
      'FORBIDDEN',
      'FORBIDDEN',
    ]);
  });

  it('says BRANCH_NOT_FOUND for an unknown branch and for an unlinked git branch', async () => {
    const unknown = await call(reader, 'search_context', {
      project_id: projectId,
      query: 'x',
      branch_id: 'br_nope',
    });
    const unlinked = await call(reader, 'search_context', {
      project_id: projectId,
      query: 'x',
      git_branch: 'feature/none',
    });

    expect(errorOf(unknown).code).toBe('BRANCH_NOT_FOUND');
    expect(errorOf(unlinked)).toMatchObject({ code: 'BRANCH_NOT_FOUND' });
    expect(errorOf(unlinked).message).toContain('link_git_branch');
  });

  it('says which field is wrong and what it accepts', async () => {
    const category = await call(reader, 'search_context', {
      project_id: projectId,
      query: 'cache',
      filter_category: 'bugs',
    });
    const topK = await call(reader, 'search_context', { project_id: projectId, query: 'cache', top_k: 0 });

    expect(errorOf(category).code).toBe('INVALID_INPUT');
    expect(JSON.stringify(errorOf(category))).toContain('filter_category');
    expect(JSON.stringify(errorOf(category))).toContain('bug_fix');
    expect(errorOf(topK).code).toBe('INVALID_INPUT');
    expect(JSON.stringify(errorOf(topK))).toContain('top_k');
  });
});
