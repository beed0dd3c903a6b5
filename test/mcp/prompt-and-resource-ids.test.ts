import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectResource } from '../../lambdas/core/rules/project-access.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/**
 * Prompt arguments and resource URIs are held to the id rules and limits the tools use
 * (projectIdField, branchIdField, gitBranchField, projectIdInput, …), through the SDK's real
 * Client over HTTP. An overlong or malformed id never reaches the document store: a prompt
 * answers -32602 naming the argument, what it takes and an example; a resource URI answers as
 * an unknown resource (-32602), like any other id the key cannot read. Errors repeat caller
 * input shortened (`echo()`), never whole.
 */
describe('ids and long values in prompt arguments and resource URIs', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let client: Client; // no grant at all
  let reader: Client; // read on the project "Shop"
  let shop: string;
  const long = 'p'.repeat(3000);

  beforeAll(async () => {
    runtime = await startTestRuntime({ projectFolders: null });
    served = await serveRuntime(runtime);
    client = (await served.connect('no grants')).client;
    shop = (await runtime.rules.projects.create({ name: 'Shop' })).project_id;
    const key = await served.connect('reader');
    await runtime.access.setGrant(key.keyId, projectResource(shop), 'read');
    reader = key.client;
  });

  afterAll(() => served?.close());

  const failure = async (request: Promise<unknown>) => {
    try {
      await request;
      return { code: 0, message: '' };
    } catch (error) {
      const { code, message } = error as { code: number; message: string };
      return { code, message };
    }
  };

  describe('prompts', () => {
    it('resume-work with a 3,000-character project_id is invalid params naming the argument, not a store fault', async () => {
      const { code, message } = await failure(
        client.getPrompt({ name: 'resume-work', arguments: { project_id: long } }),
      );

      expect({ code, store_blamed: /data store failed/.test(message) }).toEqual({
        code: -32602,
        store_blamed: false,
      });
      expect(message).toMatch(/"project_id": Too long: at most 64 characters/);
      expect(message).toContain('(3000 characters)');
      expect(message).toMatch(/e\.g\. "prj_/);
      expect(message.length).toBeLessThan(1_000);
    });

    it('resume-work refuses a project_id that is not an id, with the shape expected', async () => {
      const { code, message } = await failure(
        reader.getPrompt({ name: 'resume-work', arguments: { project_id: 'prj/../../x' } }),
      );

      expect(code).toBe(-32602);
      expect(message).toMatch(/"project_id": expected a project id from initialize_context/);
    });

    it('resume-work with a 3,000-character git_branch or branch_id, from a key that may read the project, is invalid params', async () => {
      const gitBranch = await failure(
        reader.getPrompt({
          name: 'resume-work',
          arguments: { project_id: shop, git_branch: 'g'.repeat(3000) },
        }),
      );
      const branchId = await failure(
        reader.getPrompt({
          name: 'resume-work',
          arguments: { project_id: shop, branch_id: 'b'.repeat(3000) },
        }),
      );

      expect([gitBranch.code, branchId.code]).toEqual([-32602, -32602]);
      expect(gitBranch.message).toMatch(/"git_branch": Too long: at most 200 characters/);
      expect(branchId.message).toMatch(/"branch_id": Too long: at most 120 characters/);
    });

    it('resume-work still takes ids with spaces around them, as before', async () => {
      const { code, message } = await failure(
        reader.getPrompt({
          name: 'resume-work',
          arguments: { project_id: ` ${shop} `, git_branch: ' main ' },
        }),
      );

      // Past the argument checks: the project has no branch linked to "main".
      expect(code).toBe(-32602);
      expect(message).toMatch(/link_git_branch/);
    });

    it('write-rule bounds its project and description like create_project and create_rule_from_description', async () => {
      const project = await failure(
        reader.getPrompt({ name: 'write-rule', arguments: { description: 'standups', project: long } }),
      );
      const description = await failure(
        reader.getPrompt({
          name: 'write-rule',
          arguments: { description: 'd'.repeat(100_000), project: 'Shop' },
        }),
      );

      expect([project.code, description.code]).toEqual([-32602, -32602]);
      expect(project.message).toMatch(/"project": Too long: at most 200 characters/);
      expect(description.message).toMatch(/for "description"/);
      expect(Math.max(project.message.length, description.message.length)).toBeLessThan(1_000);
    });

    it('does not echo a 100,000-character week back whole in the error', async () => {
      const { code, message } = await failure(
        client.getPrompt({ name: 'weekly-timesheet', arguments: { week: 'x'.repeat(100_000) } }),
      );

      expect(code).toBe(-32602);
      expect(message).toMatch(/"week": Too long: at most 64 characters/);
      expect(message.length).toBeLessThan(1_000);
    });

    it('refuses a week within the bound that is not a week, naming the shape', async () => {
      const { code, message } = await failure(
        client.getPrompt({ name: 'weekly-timesheet', arguments: { week: 'w'.repeat(64) } }),
      );

      expect(code).toBe(-32602);
      expect(message).toMatch(/is not an ISO week: expected YYYY-Www/);
    });
  });

  describe('resource URIs', () => {
    it('a summary URI with a 3,000-character branch id, read by a key that may read the project, is an unknown resource', async () => {
      const { code, message } = await failure(
        reader.readResource({ uri: `memory://projects/${shop}/branches/${'b'.repeat(3000)}/summary` }),
      );

      expect(code).toBe(-32602);
      expect(message).toMatch(/^Unknown resource/);
    });

    it('a memory:// summary URI with a 3,000-character project id answers as an unknown resource', async () => {
      const { code, message } = await failure(
        client.readResource({ uri: `memory://projects/${long}/branches/x/summary` }),
      );

      expect({ code, message: message.slice(0, 40) }).toEqual({
        code: -32602,
        message: 'Unknown resource "memory://projects/pppp',
      });
      expect(message.length).toBeLessThan(1_000);
    });

    it('a timesheet:// project URI with a 3,000-character id answers as an unknown resource', async () => {
      const { code, message } = await failure(reader.readResource({ uri: `timesheet://projects/${long}` }));

      expect(code).toBe(-32602);
      expect(message).toMatch(/^Unknown resource "timesheet:\/\/projects\/pppp/);
    });
  });
});
