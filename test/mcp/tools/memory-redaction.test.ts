import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectResource } from '../../../lambdas/core/rules/project-access.js';
import { type ToolOutput as Json, okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/** Issue 18's misses: a password in prose and AWS keys split by a space, and where each hides. */
const LEAKS = [
  {
    note: 'the password for the staging db is hunter2-Xyz! (ask Ann before rotating)',
    secret: 'hunter2-Xyz!',
  },
  { note: 'Deploy user key: AKIA IOSFODNN7EXAMPLE, scoped to the shop bucket.', secret: 'IOSFODNN7EXAMPLE' },
  {
    note: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfi CYEXAMPLEKEY (expires in May)',
    secret: 'CYEXAMPLEKEY',
  },
  { note: 'VPN: pwd: Tr0ub4dor&3 for the office gateway.', secret: 'Tr0ub4dor&3' },
];

/** Prose about passwords that must come back as written. */
const ORDINARY = [
  'Decision: the password policy requires 12 characters and a second factor.',
  'Users reset your password at https://id.example.com/reset when locked out.',
];

/**
 * Secrets written into memory never come back: update_memory redacts them before storing, so
 * search_context, load_context and get_active_summary (over HTTP, the SDK's real Client) only
 * ever see the marker. Ordinary prose about passwords is stored unchanged.
 */
describe('memory redaction of prose passwords and split keys', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let agent: Client;
  let projectId: string;
  let branchId: string;
  const redactedCounts: number[] = [];

  const call = (name: string, args: Json) => okTool(agent, name, args);

  beforeAll(async () => {
    runtime = await startTestRuntime({ projectFolders: null });
    served = await serveRuntime(runtime);
    projectId = (await runtime.rules.projects.create({ name: 'Shop' })).project_id;
    const key = await served.connect('agent');
    await runtime.access.setGrant(key.keyId, projectResource(projectId), 'write');
    agent = key.client;
    branchId = (await call('create_branch', { project_id: projectId, branch_topic: 'Ops notes' }))
      .branch_id as string;
    for (const content of [...LEAKS.map((l) => l.note), ...ORDINARY]) {
      const saved = await call('update_memory', {
        project_id: projectId,
        branch_id: branchId,
        role: 'user',
        content,
      });
      redactedCounts.push(saved.secrets_redacted as number);
    }
  });

  afterAll(() => served?.close());

  const answers = async () => [
    await call('search_context', {
      project_id: projectId,
      query: 'password staging db key deploy secret VPN gateway',
      min_score: 0,
      top_k: 100,
      format: 'json',
    }),
    await call('load_context', { project_id: projectId, branch_id: branchId }),
    await call('get_active_summary', { project_id: projectId, branch_id: branchId }),
  ];

  it('reports one secret redacted per leaking note, none for ordinary prose', () => {
    expect(redactedCounts).toEqual([...LEAKS.map(() => 1), ...ORDINARY.map(() => 0)]);
  });

  it.each(LEAKS)(
    'never returns $secret from search_context, load_context or get_active_summary',
    async ({ secret }) => {
      for (const answer of await answers()) expect(JSON.stringify(answer)).not.toContain(secret);
    },
  );

  it('returns the ordinary prose about passwords unchanged', async () => {
    const [search, loaded] = await answers();

    for (const text of ORDINARY) expect(loaded!.content).toContain(text);
    expect(JSON.stringify(search)).toContain('password policy requires 12 characters');
  });
});
