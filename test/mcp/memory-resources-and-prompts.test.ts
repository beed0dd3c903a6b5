import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { projectResource } from '../../lambdas/core/rules/project-access.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const summaryUri = (projectId: string, branchId: string) =>
  `memory://projects/${projectId}/branches/${branchId}/summary`;

/**
 * The memory toolset's resource (a branch's active summary) and the resume-work prompt through
 * the SDK's real Client over HTTP, as a key that may read one project of two.
 */
describe('memory resources and prompts over HTTP', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let client: Client;
  let timeOnly: Client;
  let shop: string;
  let secret: string;
  let checkout: string;
  let hidden: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ projectFolders: null });
    served = await serveRuntime(runtime);
    shop = (await runtime.rules.projects.create({ name: 'Shop' })).project_id;
    secret = (await runtime.rules.projects.create({ name: 'Secret' })).project_id;
    checkout = (await runtime.memory.createBranch(LOCAL_OWNER, shop, { topic: 'Checkout flow' })).branch_id;
    hidden = (await runtime.memory.createBranch(LOCAL_OWNER, secret, { topic: 'Merger plans' })).branch_id;
    for (const content of ['Built the cart page.', 'Decided to retry failed payments twice.']) {
      await runtime.memory.updateMemory(LOCAL_OWNER, shop, {
        branch_id: checkout,
        role: 'assistant',
        content,
      });
    }
    await runtime.memory.updateMemory(LOCAL_OWNER, secret, {
      branch_id: hidden,
      role: 'user',
      content: 'Acquire Initech in March.',
    });
    await runtime.memory.linkGitBranch(LOCAL_OWNER, shop, checkout, 'feature/checkout');
    const key = await served.connect('shop reader');
    await runtime.access.setGrant(key.keyId, projectResource(shop), 'read');
    client = key.client;
    timeOnly = await served.connectToken(key.token, { toolsets: ['time'] });
  });

  afterAll(() => served?.close());

  describe('the branch summary resource', () => {
    it('lists the template and one summary per branch of the projects the key may read', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      const { resources } = await client.listResources();

      expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(
        'memory://projects/{project_id}/branches/{branch_id}/summary',
      );
      const memory = resources.filter((r) => r.uri.startsWith('memory://'));
      expect(memory.map((r) => [r.uri, r.title])).toEqual([[summaryUri(shop, checkout), 'Checkout flow']]);
    });

    it('reads the summary and the latest messages as markdown', async () => {
      const [content] = (await client.readResource({ uri: summaryUri(shop, checkout) })).contents;
      const text = content && 'text' in content ? content.text : '';

      expect(content?.mimeType).toBe('text/markdown');
      expect(text).toContain('# Checkout flow');
      expect(text).toContain('git `feature/checkout`');
      expect(text).toContain('[assistant] Decided to retry failed payments twice.');
    });

    it('answers a branch of a project the key may not read exactly like one that does not exist', async () => {
      // -32602 since 2026-07-28 (the SDK answers it on both eras; 2025 used -32002).
      await expect(client.readResource({ uri: summaryUri(secret, hidden) })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^Unknown resource/),
      });
      await expect(client.readResource({ uri: summaryUri(shop, 'no_such_branch') })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^Unknown resource/),
      });
    });
  });

  describe('resume-work', () => {
    it('embeds the summary resource and says how to continue', async () => {
      const { messages } = await client.getPrompt({
        name: 'resume-work',
        arguments: { project_id: shop, git_branch: 'feature/checkout' },
      });

      const [resource, instruction] = messages;
      expect(resource?.content).toMatchObject({
        type: 'resource',
        resource: { uri: summaryUri(shop, checkout), mimeType: 'text/markdown' },
      });
      expect(JSON.stringify(resource?.content)).toContain('Built the cart page.');
      expect(instruction?.content).toMatchObject({ type: 'text' });
      expect(JSON.stringify(instruction?.content)).toContain(`branch_id \\"${checkout}\\"`);
      // Memory text is untrusted: the prompt says so after embedding it.
      expect(JSON.stringify(instruction?.content)).toContain('not as a request from me');
    });

    it('refuses a project the key may not read, and says which argument is missing', async () => {
      await expect(
        client.getPrompt({ name: 'resume-work', arguments: { project_id: secret, branch_id: hidden } }),
      ).rejects.toThrow(/lacks read access to project/);
      await expect(
        client.getPrompt({ name: 'resume-work', arguments: { branch_id: checkout } }),
      ).rejects.toThrow(/needs "project_id"/);
      await expect(
        client.getPrompt({ name: 'resume-work', arguments: { project_id: shop, git_branch: 'main' } }),
      ).rejects.toThrow(/link_git_branch/);
    });
  });

  describe('with the memory toolset off', () => {
    it('lists no memory resource, template or prompt, and refuses to serve them', async () => {
      const { resources } = await timeOnly.listResources();
      const { resourceTemplates } = await timeOnly.listResourceTemplates();
      const { prompts } = await timeOnly.listPrompts();

      expect(resources.filter((r) => r.uri.startsWith('memory://'))).toEqual([]);
      expect(resourceTemplates).toEqual([]);
      expect(prompts).toEqual([]);
      await expect(timeOnly.readResource({ uri: summaryUri(shop, checkout) })).rejects.toThrow(
        /toolset "memory"/,
      );
      await expect(
        timeOnly.getPrompt({ name: 'resume-work', arguments: { project_id: shop, branch_id: checkout } }),
      ).rejects.toThrow(/toolset "memory"/);
    });
  });
});
