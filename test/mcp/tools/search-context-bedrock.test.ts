import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { embedderFrom } from '../../../lambdas/runtime/embedder-config.js';
import { parseEnvironment } from '../../../lambdas/runtime/environment.js';
import { type FakeBedrock, startFakeBedrock } from '../../support/fake-bedrock.js';
import { callTool, okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime } from '../../support/test-runtime.js';

const MEMORIES = [
  'Redis evicts session keys under memory pressure: raised maxmemory and set volatile-lru.',
  'Customers were charged twice on a double click: the pay button now disables itself.',
  'Decided to deploy with blue/green on Fridays only after the smoke tests pass.',
];

/**
 * search_context over HTTP with the embedder a deployment selects by MERIDIAN_EMBEDDINGS=bedrock,
 * Bedrock being a local fake of InvokeModel (no real Bedrock here).
 */
describe('search_context with the Bedrock embedder (MERIDIAN_EMBEDDINGS=bedrock)', () => {
  let bedrock: FakeBedrock;
  let served: ServedRuntime;
  let client: Client;
  let projectId: string;

  beforeAll(async () => {
    bedrock = await startFakeBedrock();
    // The SDK's default credential chain and region, as a Lambda gets them from its environment.
    vi.stubEnv('AWS_REGION', 'eu-west-1');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDLOCAL');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local-secret');
    const embedder = embedderFrom(
      parseEnvironment({
        MERIDIAN_EMBEDDINGS: 'bedrock',
        MERIDIAN_EMBEDDING_DIMENSION: '512',
        MERIDIAN_BEDROCK_ENDPOINT: bedrock.endpoint,
      }).embeddings,
    );
    served = await serveRuntime(await startTestRuntime({ projectFolders: null, embedder }));
    client = (await served.connect('owner')).client;
    const init = await okTool(client, 'initialize_context', {
      project_path: '/srv/shop',
      mode: 'none',
      files: [],
    });
    projectId = init.project_id as string;
    const branch = await okTool(client, 'create_branch', { project_id: projectId, branch_topic: 'main' });
    for (const content of MEMORIES) {
      await okTool(client, 'update_memory', {
        project_id: projectId,
        branch_id: branch.branch_id,
        role: 'assistant',
        content,
      });
    }
  }, 60_000);

  afterAll(async () => {
    await served?.close();
    await bedrock?.close();
    vi.unstubAllEnvs();
  });

  it('embeds the memories and the query with Titan v2 at 512 dimensions and finds the right one', async () => {
    const before = bedrock.requests.length;

    const answer = await okTool(client, 'search_context', {
      project_id: projectId,
      query: 'why were customers billed two times',
    });

    const results = answer.results as { snippet: string; score: number }[];
    expect(results[0]!.snippet).toContain('charged twice');
    const sent = bedrock.requests.slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(MEMORIES.length + 1);
    for (const request of sent) {
      expect(request).toMatchObject({
        modelId: 'amazon.titan-embed-text-v2:0',
        signed: true,
        body: { dimensions: 512, normalize: true },
      });
    }
    expect(sent.map((r) => r.body.inputText)).toContain('why were customers billed two times');
  });

  it('answers NETWORK_ERROR, saying to retry, when Bedrock stays throttled', async () => {
    bedrock.failNext(4, 'ThrottlingException', 429);

    const result = await callTool(client, 'search_context', { project_id: projectId, query: 'redis' });

    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.structuredContent ?? result.content)).toMatch(/NETWORK_ERROR/);
  }, 30_000);
});
