import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { projectResource } from '../../lambdas/core/rules/project-access.js';
import { callTool, errorOf, okTool } from '../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const TOOLSETS = ['calendar', 'rules', 'memory'];

/** An id of the same shape that names nothing: its last character changed. */
const missingLike = (id: string) => `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;

/** An answer with the two ids replaced by one placeholder, so only what else differs shows. */
const normalized = (answer: unknown, ...ids: string[]) =>
  ids.reduce((text, id) => text.replaceAll(id, '<id>'), JSON.stringify(answer));

/**
 * A key that may not read a resource cannot tell it from one that does not exist: for every kind,
 * the refusal for another key's resource and for a missing id of the same shape are the same code
 * and message (modulo the id echoed). Over HTTP with the SDK's real Client (issue 18, finding 7).
 *
 * Calendars and projects the caller names are refused FORBIDDEN whether or not they exist (the
 * grant is checked first, and a missing resource has no grant); things found by their own id
 * (rules) or inside a project the caller names (branches, entries, snapshots, suggestions) answer
 * NOT_FOUND for both.
 */
describe('refusals for another key’s resources and for missing ones', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let alice: Client;
  let bob: Client;
  let bobKeyId: string;
  let bobProject: string;
  let bobBranch: string;
  let bobCalendar: string;
  const theirs = {} as Record<
    'calendar' | 'event' | 'project' | 'rule' | 'branch' | 'entry' | 'snapshot' | 'session',
    string
  >;

  beforeAll(async () => {
    runtime = await startTestRuntime({ clock: fixedClock('2026-03-02T12:00:00Z'), defaultTimezone: 'UTC' });
    served = await serveRuntime(runtime);
    alice = (await served.connect('alice', { toolsets: TOOLSETS })).client;
    const connected = await served.connect('bob', { toolsets: TOOLSETS });
    bob = connected.client;
    bobKeyId = connected.keyId;

    theirs.calendar = (await okTool(alice, 'create_calendar', { summary: 'Alice' })).calendar_id;
    theirs.event = (
      await okTool(alice, 'create_event', {
        calendar_id: theirs.calendar,
        summary: 'Planning',
        start: '2026-03-03T10:00:00Z',
        end: '2026-03-03T11:00:00Z',
      })
    ).event_id;
    theirs.project = (await okTool(alice, 'create_project', { name: 'Alice project' })).project.project_id;
    theirs.rule = (
      await okTool(alice, 'create_rule', { query: 'title:planning', project_id: theirs.project })
    ).rule.rule_id;
    theirs.branch = (
      await okTool(alice, 'create_branch', { project_id: theirs.project, branch_topic: 'Plans' })
    ).branch_id;
    theirs.entry = (
      await okTool(alice, 'update_memory', {
        project_id: theirs.project,
        branch_id: theirs.branch,
        content: 'We ship on Friday.',
        role: 'user',
      })
    ).entry_id;
    theirs.snapshot = (await okTool(alice, 'create_snapshot', { project_id: theirs.project })).snapshot_id;
    theirs.session = (
      await okTool(alice, 'suggest_contexts', {
        project_id: theirs.project,
        current_context: 'shipping plans',
      })
    ).session_id;

    bobCalendar = (await okTool(bob, 'create_calendar', { summary: 'Bob' })).calendar_id;
    bobProject = (await okTool(bob, 'create_project', { name: 'Bob project' })).project.project_id;
    bobBranch = (await okTool(bob, 'create_branch', { project_id: bobProject, branch_topic: 'Mine' }))
      .branch_id;
  });

  afterAll(async () => {
    await served?.close();
  });

  /** Bob's refusal for Alice's id and for a missing one, side by side. */
  async function refusals(id: string, args: (id: string) => [tool: string, args: Record<string, unknown>]) {
    const missing = missingLike(id);
    const [tool, forTheirs] = args(id);
    const [, forMissing] = args(missing);
    return {
      theirs: normalized(errorOf(await callTool(bob, tool, forTheirs)), id, missing),
      missing: normalized(errorOf(await callTool(bob, tool, forMissing)), id, missing),
    };
  }

  const CASES: [kind: keyof typeof theirs, build: (id: string) => [string, Record<string, unknown>]][] = [
    ['rule', (id) => ['update_rule', { rule_id: id, weight: 5 }]],
    ['rule', (id) => ['delete_rule', { rule_id: id }]],
    ['project', (id) => ['update_project', { project_id: id, name: 'Mine now' }]],
    ['project', (id) => ['list_rules', { project_id: id }]],
    ['project', (id) => ['create_rule', { query: 'title:x', project_id: id }]],
    ['project', (id) => ['list_branches', { project_id: id }]],
    ['project', (id) => ['search_context', { project_id: id, query: 'ship' }]],
    ['calendar', (id) => ['list_events', { calendar_id: id }]],
    [
      'calendar',
      (id) => [
        'create_event',
        { calendar_id: id, summary: 'x', start: '2026-03-04T10:00:00Z', end: '2026-03-04T11:00:00Z' },
      ],
    ],
    ['event', (id) => ['get_event', { calendar_id: theirs.calendar, event_id: id }]],
    ['event', (id) => ['get_event', { calendar_id: bobCalendar, event_id: id }]],
    ['event', (id) => ['delete_event', { calendar_id: bobCalendar, event_id: id }]],
    ['branch', (id) => ['get_active_summary', { project_id: bobProject, branch_id: id }]],
    ['branch', (id) => ['load_context', { project_id: bobProject, branch_id: id, context_id: `ctx_${id}` }]],
    [
      'entry',
      (id) => [
        'update_memory',
        { project_id: bobProject, branch_id: bobBranch, entry_id: id, content: 'x', role: 'user' },
      ],
    ],
    ['snapshot', (id) => ['restore_snapshot', { project_id: bobProject, snapshot_id: id }]],
    [
      'session',
      (id) => [
        'accept_suggestions',
        { project_id: bobProject, session_id: id, context_ids: [`ctx_${bobBranch}`] },
      ],
    ],
  ];

  it.each(CASES)('%s: the same refusal for another key’s and a missing id (%#)', async (kind, build) => {
    const { theirs: forTheirs, missing } = await refusals(theirs[kind], build);

    expect(forTheirs).toBe(missing);
  });

  it('answers update_rule and delete_rule on an unreadable rule NOT_FOUND, without its project', async () => {
    const error = errorOf(await callTool(bob, 'delete_rule', { rule_id: theirs.rule }));

    expect(error).toMatchObject({ code: 'NOT_FOUND', rule_id: theirs.rule });
    expect(JSON.stringify(error)).not.toContain(theirs.project);
  });

  it('still refuses FORBIDDEN, naming the project, a key that may read the rule but not change it', async () => {
    await runtime.access.setGrant(bobKeyId, projectResource(theirs.project), 'read');
    try {
      const error = errorOf(await callTool(bob, 'update_rule', { rule_id: theirs.rule, weight: 5 }));

      expect(error).toMatchObject({ code: 'FORBIDDEN', resource_id: theirs.project, missing_right: 'write' });
    } finally {
      await runtime.access.setGrant(bobKeyId, projectResource(theirs.project), 'none');
    }
  });

  describe('resources, prompts and completions', () => {
    it('reads another key’s project or branch summary exactly as a missing one', async () => {
      const read = async (uri: string) => {
        try {
          return JSON.stringify(await bob.readResource({ uri }));
        } catch (error) {
          return String(error);
        }
      };
      const cases: [id: string, uri: (id: string) => string][] = [
        [theirs.project, (id) => `timesheet://projects/${id}`],
        [theirs.project, (id) => `memory://projects/${id}/branches/${theirs.branch}/summary`],
        [theirs.branch, (id) => `memory://projects/${bobProject}/branches/${id}/summary`],
      ];
      for (const [id, uri] of cases) {
        const missing = missingLike(id);
        expect(normalized(await read(uri(id)), id, missing)).toBe(
          normalized(await read(uri(missing)), id, missing),
        );
      }
    });

    it('renders a prompt for another key’s project exactly as for a missing one', async () => {
      const prompt = async (project: string) => {
        try {
          return JSON.stringify(
            await bob.getPrompt({ name: 'write-rule', arguments: { project, description: 'meetings' } }),
          );
        } catch (error) {
          return String(error);
        }
      };
      const missing = missingLike(theirs.project);

      expect(normalized(await prompt(theirs.project), theirs.project, missing)).toBe(
        normalized(await prompt(missing), theirs.project, missing),
      );
    });

    it('completes project ids with the caller’s own only', async () => {
      const { completion } = await bob.complete({
        ref: { type: 'ref/prompt', name: 'write-rule' },
        argument: { name: 'project', value: 'project' },
      });

      expect(completion.values).toEqual(['Bob project']);
    });
  });
});
