import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, errorOf, okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/**
 * Issue 18, item 3: verify_response searches the memory once per claim of the response, so its
 * work is claims × passages. It spends the call's allowance (ADR 0008, decision 11): here 1,000
 * items, so a long response over a modest memory is refused with WORK_LIMIT_EXCEEDED and a
 * short one is answered. Over HTTP with the SDK's real Client, on dynalite.
 */
describe('verify_response spends the call’s work allowance', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let owner: Client;
  let projectId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    served = await serveRuntime(
      Object.assign(Object.create(runtime) as TestRuntime, {
        callLimits: { deadlineMs: 30_000, workItems: 1_000 },
      }),
    );
    owner = (await served.connect('owner')).client;
    projectId = (await okTool(owner, 'initialize_context', { project_path: '/srv/notes', mode: 'none' }))
      .project_id;
    const branch = (await okTool(owner, 'create_branch', { project_id: projectId, branch_topic: 'Notes' }))
      .branch_id;
    // 40 entries of 10 sentences: 400 passages, so each claim's search scores 4 items' worth.
    for (let i = 0; i < 40; i++) {
      const content = Array.from(
        { length: 10 },
        (_, j) => `The service ${i} keeps ${j} replicas in region ${i + j}.`,
      );
      await okTool(owner, 'update_memory', {
        project_id: projectId,
        branch_id: branch,
        role: 'user',
        content: content.join(' '),
      });
    }
  }, 60_000);

  afterAll(() => served?.close());

  it('answers a short response', async () => {
    const report = await okTool(owner, 'verify_response', {
      project_id: projectId,
      response_text: 'The service 3 keeps 2 replicas in region 5.',
    });
    expect(report.claims_extracted).toBe(1);
  });

  it('refuses a response whose claims would score more passages than the allowance, saying how to narrow', async () => {
    const sentences = Array.from({ length: 380 }, (_, i) => `The worker ${i} keeps ${i} queues warm.`);
    const error = errorOf(
      await callTool(owner, 'verify_response', { project_id: projectId, response_text: sentences.join(' ') }),
    );
    expect(error.code, error.message).toBe('WORK_LIMIT_EXCEEDED');
    expect(error).toMatchObject({ bound: 1_000, unit: 'items' });
    expect(error.message).toMatch(/shorter response_text|evidence_sources/);
  });
});
