import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource, LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { projectResource } from '../../lambdas/core/rules/project-access.js';
import { ProjectStore } from '../../lambdas/core/rules/project-store.js';
import { RuleStore } from '../../lambdas/core/rules/rule-store.js';
import { type CallToolResult, callTool, errorOf, okTool, type ToolOutput } from '../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const LONE = '\uD800';
/** What the sanitiser strips, one of each class: NUL, another C0 control, C1, bidi, zero-width, BOM. */
const HOSTILE = `\u0000\u0007\u009B\u202E\u2066\u200B\uFEFF${LONE}`;

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/**
 * Everything stored passes one sanitiser (lambdas/core/firewall/sanitize-text.ts): lone surrogates,
 * NUL and other controls, bidi controls and invisible characters are removed, a field left empty is
 * refused, and listings in TOON and JSON never fail on text stored before the rule existed.
 * Over HTTP with the SDK's real Client, as an agent meets it (issue 18, finding 4).
 */
describe('text the server stores', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let owner: Client;
  let reader: Client;
  let readerKeyId: string;
  let projectId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ clock: fixedClock('2026-03-02T12:00:00Z'), defaultTimezone: 'UTC' });
    served = await serveRuntime(runtime);
    owner = (await served.connect('owner', { toolsets: ['rules', 'memory', 'calendar'] })).client;
    const second = await served.connect('reader', { toolsets: ['rules', 'memory'] });
    reader = second.client;
    readerKeyId = second.keyId;
    projectId = (await okTool(owner, 'create_project', { name: 'D project' })).project.project_id;
    await runtime.access.setGrant(second.keyId, projectResource(projectId), 'read');
    // list_rules reports each rule's use on the calendars the key reads: give it one.
    const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Work', time_zone: 'UTC' });
    await runtime.access.setGrant(second.keyId, calendarResource(calendar.id), 'read');
  });

  afterAll(async () => {
    await served?.close();
  });

  const listedIn = async (client: Client, tool: string, args: Record<string, unknown>) => ({
    toon: await callTool(client, tool, { ...args, format: 'toon' }),
    json: await callTool(client, tool, { ...args, format: 'json' }),
  });

  describe('a lone surrogate sent in a stored field', () => {
    it('is removed from a project name, and list_projects answers in TOON for every key that reads it', async () => {
      const updated = await okTool(owner, 'update_project', {
        project_id: projectId,
        name: `D project ${LONE}`,
      });

      expect(updated.project.name).toBe('D project ');
      for (const client of [owner, reader]) {
        const { toon, json } = await listedIn(client, 'list_projects', {});
        expect(toon.isError ?? false).toBe(false);
        expect(textOf(toon)).toContain('D project');
        expect(json.structuredContent).toMatchObject({ projects: [{ name: 'D project ' }] });
      }
    });

    it('is removed from a rule query, and list_rules answers in TOON', async () => {
      const { rule } = await okTool(owner, 'create_rule', {
        query: `title:"stand${LONE}up"`,
        project_id: projectId,
      });

      const { toon } = await listedIn(reader, 'list_rules', { project_id: projectId });

      expect(rule.query).toBe('title:standup');
      expect(textOf(toon)).toContain('title:standup');
      expect(toon.isError ?? false).toBe(false);
      expect(textOf(toon)).toContain('title:standup');
    });

    it('is removed from a branch topic, and list_branches answers in TOON', async () => {
      const created = await okTool(owner, 'create_branch', {
        project_id: projectId,
        branch_topic: `Auth ${LONE}flow`,
      });

      const { toon } = await listedIn(reader, 'list_branches', { project_id: projectId });

      expect(created.branch_topic).toBe('Auth flow');
      expect(toon.isError ?? false).toBe(false);
      expect(textOf(toon)).toContain('Auth flow');
    });
  });

  describe('NUL, controls, bidi and zero-width characters', () => {
    it('are removed from names, clients, queries, topics and descriptions alike', async () => {
      const { project } = await okTool(owner, 'create_project', {
        name: `Ro${HOSTILE}ad`,
        client: `Ac${HOSTILE}me`,
      });
      const { rule } = await okTool(owner, 'create_rule', {
        query: `title:"ro${HOSTILE}ad"`,
        project_id: project.project_id,
        description: `Why${HOSTILE}\tnot\r\nnow`,
      });
      const updated = await okTool(owner, 'update_rule', {
        rule_id: rule.rule_id,
        description: `Be${HOSTILE}cause`,
      });
      const branch = await okTool(owner, 'create_branch', {
        project_id: project.project_id,
        branch_topic: `To${HOSTILE}pic`,
      });
      const snapshot = await okTool(owner, 'create_snapshot', {
        project_id: project.project_id,
        description: `Be${HOSTILE}fore`,
      });
      const { snapshots } = await okTool(owner, 'list_snapshots', {
        project_id: project.project_id,
        format: 'json',
      });

      expect(project).toMatchObject({ name: 'Road', client: 'Acme' });
      expect(rule).toMatchObject({ query: 'title:road', description: 'Why\tnot\nnow' });
      expect(updated.rule.description).toBe('Because');
      expect(branch.branch_topic).toBe('Topic');
      expect(snapshot.success).toBe(true);
      expect(snapshots).toEqual([expect.objectContaining({ description: 'Before' })]);
    });

    it('are removed the same way from event text and memory text, which the firewall and redaction clean', async () => {
      const calendar = (await okTool(owner, 'create_calendar', { summary: `Cal${HOSTILE}endar` }))
        .calendar_id;
      const { event } = await okTool(owner, 'create_event', {
        calendar_id: calendar,
        summary: `Re${HOSTILE}tro`,
        description: `Not${HOSTILE}es`,
        location: `Ro${HOSTILE}om 4`,
        start: '2026-03-03T10:00:00Z',
        end: '2026-03-03T11:00:00Z',
        return_event: true,
      });
      const { branch_id } = await okTool(owner, 'create_branch', {
        project_id: projectId,
        branch_topic: 'Notes',
      });
      await okTool(owner, 'update_memory', {
        project_id: projectId,
        branch_id,
        content: `Ship${HOSTILE} on Friday`,
        role: 'user',
      });
      const loaded = await okTool(owner, 'load_context', {
        project_id: projectId,
        branch_id,
        context_id: `ctx_${branch_id}`,
      });
      const { calendars } = await okTool(owner, 'list_calendars', { format: 'json' });

      expect(event).toMatchObject({ summary: 'Retro', description: 'Notes', location: 'Room 4' });
      expect(loaded.content).toContain('Ship on Friday');
      expect(calendars).toContainEqual(expect.objectContaining({ id: calendar, name: 'Calendar' }));
    });

    it('keeps the joiners real text needs: an emoji ZWJ sequence and a Persian ZWNJ', async () => {
      const { project } = await okTool(owner, 'create_project', { name: '👩‍💻 می‌خواهم' });

      expect(project.name).toBe('👩‍💻 می‌خواهم');
    });

    it('refuses a name left empty once they are removed, naming the field', async () => {
      const result = await callTool(owner, 'create_project', { name: HOSTILE });

      expect(errorOf(result)).toMatchObject({ code: 'INVALID_INPUT', problems: [{ field: 'name' }] });
      expect(errorOf(result).message).toMatch(/no visible characters/);
    });
  });

  describe('text stored before the rule', () => {
    it('still lists in TOON and JSON, a lone surrogate shown as U+FFFD', async () => {
      const deps = { store: runtime.store, clock: runtime.clock, random: runtime.random };
      const legacy = await new ProjectStore(deps).create({ name: `Legacy ${LONE}`, client: `C${LONE}` });
      await runtime.access.setGrant(readerKeyId, projectResource(legacy.project_id), 'read');
      await new RuleStore(deps).create(
        { query: `title:"x${LONE}"`, project_id: legacy.project_id, weight: 1 },
        'local-owner',
      );

      const projects = await listedIn(reader, 'list_projects', {});
      const rules = await listedIn(reader, 'list_rules', { project_id: legacy.project_id });

      for (const result of [projects.toon, projects.json, rules.toon, rules.json])
        expect(result.isError ?? false).toBe(false);
      expect(textOf(projects.toon)).toContain('Legacy \uFFFD');
      expect(textOf(projects.json)).toContain('Legacy \uFFFD');
      expect((projects.json.structuredContent as ToolOutput).projects).toContainEqual(
        expect.objectContaining({ name: 'Legacy \uFFFD', client: 'C\uFFFD' }),
      );
      expect(textOf(rules.toon)).toContain('\uFFFD');
    });
  });
});
