import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { projectResource } from '../../lambdas/core/rules/project-access.js';
import { RULE_PROPERTIES } from '../../lambdas/core/rules/rule-properties.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const SYNTAX = 'timesheet://docs/rules-syntax';
const PROJECTS = 'timesheet://projects';
const RULES = 'timesheet://rules';

/**
 * The rules toolset's resources, prompts and completions through the SDK's real Client over
 * `meridian serve`'s HTTP path, as a key that may read one project of two.
 */
describe('timesheet resources, prompts and completions over HTTP', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let client: Client;
  let timeOnly: Client;
  let acme: { project_id: string; name: string };
  let board: { project_id: string; name: string };
  let acmeRule: string;
  let boardRule: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ clock: fixedClock('2026-11-25T12:00:00Z'), defaultTimezone: 'UTC' });
    served = await serveRuntime(runtime);
    acme = await runtime.rules.createProject(LOCAL_OWNER, { name: 'Acme website', billable: true });
    board = await runtime.rules.createProject(LOCAL_OWNER, { name: 'Board', client: 'Secret Inc' });
    await runtime.rules.createProject(LOCAL_OWNER, { name: 'Acme archive', archived: true });
    acmeRule = (
      await runtime.rules.createRule(LOCAL_OWNER, { query: 'domain:acme.com', project_id: acme.project_id })
    ).rule_id;
    boardRule = (
      await runtime.rules.createRule(LOCAL_OWNER, { query: 'title:board', project_id: board.project_id })
    ).rule_id;
    const key = await served.connect('acme reader');
    await runtime.access.setGrant(key.keyId, projectResource(acme.project_id), 'read');
    client = key.client;
    timeOnly = await served.connectToken(key.token, { toolsets: ['time'] });
  });

  afterAll(() => served?.close());

  const textOf = async (uri: string) => {
    const [content] = (await client.readResource({ uri })).contents;
    return content && 'text' in content ? content.text : '';
  };
  const jsonOf = async (uri: string) => JSON.parse(await textOf(uri));
  const promptText = (messages: { content: { type: string; text?: string } }[]) =>
    messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
  const complete = (prompt: string, name: string, value: string) =>
    client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name, value } });

  describe('resources', () => {
    it('lists the syntax, projects and rules, and one resource per project the key may read', async () => {
      const uris = (await client.listResources()).resources.map((r) => r.uri);

      expect(uris).toEqual([SYNTAX, PROJECTS, RULES, `${PROJECTS}/${acme.project_id}`]);
    });

    it('lists the project template', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();

      const timesheet = resourceTemplates.filter((t) => t.uriTemplate.startsWith('timesheet://'));
      expect(timesheet.map((t) => t.uriTemplate)).toEqual(['timesheet://projects/{project_id}']);
    });

    it('serves the syntax as markdown with a row for every property the parser knows', async () => {
      const [content] = (await client.readResource({ uri: SYNTAX })).contents;
      const text = content && 'text' in content ? content.text : '';

      expect(content?.mimeType).toBe('text/markdown');
      for (const property of RULE_PROPERTIES) expect(text).toContain(`| \`${property.name}\` |`);
      expect(text).toContain('OR` binds tighter than AND');
    });

    it('serves only the projects the key may read, as JSON', async () => {
      const { projects } = await jsonOf(PROJECTS);

      expect(projects).toEqual([
        expect.objectContaining({
          project_id: acme.project_id,
          name: 'Acme website',
          billable: true,
          access: 'read',
          uri: `${PROJECTS}/${acme.project_id}`,
        }),
      ]);
    });

    it('serves only the rules of readable projects, with the project name', async () => {
      const { rules } = await jsonOf(RULES);

      expect(rules).toEqual([
        expect.objectContaining({
          rule_id: acmeRule,
          query: 'domain:acme.com',
          project_id: acme.project_id,
          project_name: 'Acme website',
          weight: 1,
        }),
      ]);
      expect(JSON.stringify(rules)).not.toContain(boardRule);
    });

    it('reads one project with its rules through the template', async () => {
      const body = await jsonOf(`${PROJECTS}/${acme.project_id}`);

      expect(body.project).toMatchObject({ project_id: acme.project_id, name: 'Acme website' });
      expect(body.rules.map((r: { rule_id: string }) => r.rule_id)).toEqual([acmeRule]);
    });

    it('answers a project the key may not read exactly like one that does not exist (-32602)', async () => {
      const hidden = client.readResource({ uri: `${PROJECTS}/${board.project_id}` });
      const missing = client.readResource({ uri: `${PROJECTS}/prj_nothing` });

      const [hiddenError, missingError] = await Promise.all([
        hidden.catch((e) => e),
        missing.catch((e) => e),
      ]);

      // -32602 since 2026-07-28 (the SDK answers it on both eras; 2025 used -32002).
      // The requested URI in data.uri (SEP-2164, a SHOULD of 2026-07-28).
      expect(hiddenError).toMatchObject({ code: -32602, data: { uri: `${PROJECTS}/${board.project_id}` } });
      expect(missingError).toMatchObject({ code: -32602, data: { uri: `${PROJECTS}/prj_nothing` } });
      expect(hiddenError.message).not.toMatch(/Board|Secret/);
    });
  });

  describe('prompts', () => {
    it('lists write-rule and weekly-timesheet with their arguments', async () => {
      const prompts = (await client.listPrompts()).prompts.filter((p) => p.name !== 'resume-work');

      expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
        [
          'write-rule',
          [
            ['description', true],
            ['project', true],
          ],
        ],
        ['weekly-timesheet', [['week', false]]],
      ]);
    });

    it('write-rule embeds the syntax and names the project id for preview_rule and create_rule', async () => {
      const { messages } = await client.getPrompt({
        name: 'write-rule',
        arguments: { description: 'calls with Acme on Fridays', project: 'acme WEBSITE' },
      });

      expect(messages[0]?.content).toMatchObject({ type: 'resource', resource: { uri: SYNTAX } });
      const text = promptText(messages);
      expect(text).toContain(`"project_id": "${acme.project_id}"`);
      expect(text).toMatch(/preview_rule[\s\S]*create_rule/);
      expect(text).toContain('calls with Acme on Fridays');
    });

    it('write-rule refuses a project the key may not read, naming ones it may', async () => {
      const refused = client.getPrompt({
        name: 'write-rule',
        arguments: { description: 'x', project: 'Board' },
      });

      await expect(refused).rejects.toMatchObject({ code: -32602 });
      await expect(
        client.getPrompt({ name: 'write-rule', arguments: { description: 'x', project: 'Board' } }),
      ).rejects.toThrow(/"Acme website"/);
    });

    it('write-rule says which argument is missing, with an example', async () => {
      const missing = client.getPrompt({ name: 'write-rule', arguments: { project: 'Acme website' } });

      await expect(missing).rejects.toThrow(/needs "description".*e\.g\. "meetings with people from Acme/);
    });

    it('refuses an argument a prompt does not take, naming the ones it does', async () => {
      const refused = client.getPrompt({ name: 'weekly-timesheet', arguments: { weak: '2026-W48' } });

      await expect(refused).rejects.toThrow(/no argument "weak"; it takes week/);
    });

    it('weekly-timesheet turns the ISO week into the window get_timesheet needs', async () => {
      const { messages } = await client.getPrompt({
        name: 'weekly-timesheet',
        arguments: { week: '2026-W48' },
      });

      const text = promptText(messages);
      expect(text).toContain('"start": "2026-11-23T00:00:00.000Z", "end": "2026-11-30T00:00:00.000Z"');
      expect(text).toContain('get_rule_suggestions');
    });

    it('weekly-timesheet defaults to the current week', async () => {
      const { messages } = await client.getPrompt({ name: 'weekly-timesheet', arguments: {} });

      expect(promptText(messages)).toContain('ISO week 2026-W48');
    });

    it('weekly-timesheet refuses a value that is not an ISO week, with the shape and an example', async () => {
      const refused = client.getPrompt({ name: 'weekly-timesheet', arguments: { week: '2026-48' } });

      await expect(refused).rejects.toThrow(/not an ISO week: expected YYYY-Www.*"2026-W48"/);
    });
  });

  describe('completions', () => {
    it('completes project with the names of active projects the key may read, and no other', async () => {
      const { completion } = await complete('write-rule', 'project', '');

      expect(completion.values).toEqual(['Acme website']);
    });

    it('completes project from a part of the name, spaces included', async () => {
      const { completion } = await complete('write-rule', 'project', 'acme web');

      expect(completion.values).toEqual(['Acme website']);
    });

    it("completes the project template's project_id with the ids the key may read", async () => {
      const { completion } = await client.complete({
        ref: { type: 'ref/resource', uri: 'timesheet://projects/{project_id}' },
        argument: { name: 'project_id', value: 'prj_' },
      });

      expect(completion.values).toEqual([acme.project_id]);
    });

    it('completes week with ISO weeks, the most recent first', async () => {
      const recent = await complete('weekly-timesheet', 'week', '');
      const typed = await complete('weekly-timesheet', 'week', '2026-W4');

      expect(recent.completion.values.slice(0, 3)).toEqual(['2026-W48', '2026-W47', '2026-W46']);
      expect(typed.completion.values).toEqual([
        '2026-W49',
        '2026-W48',
        '2026-W47',
        '2026-W46',
        '2026-W45',
        '2026-W44',
        '2026-W43',
        '2026-W42',
        '2026-W41',
        '2026-W40',
      ]);
    });
  });

  describe('with the rules toolset off', () => {
    it('lists no timesheet resource, template or prompt', async () => {
      expect((await timeOnly.listResources()).resources).toEqual([]);
      expect((await timeOnly.listResourceTemplates()).resourceTemplates).toEqual([]);
      expect((await timeOnly.listPrompts()).prompts).toEqual([]);
    });

    it('refuses to read one or render one, naming the toolset that serves it', async () => {
      await expect(timeOnly.readResource({ uri: SYNTAX })).rejects.toThrow(/toolset "rules"/);
      await expect(timeOnly.getPrompt({ name: 'weekly-timesheet', arguments: {} })).rejects.toThrow(
        /toolset "rules"/,
      );
    });
  });
});
