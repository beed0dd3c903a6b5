import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { TOOLSETS } from '../../lambdas/mcp/tools/index.js';

const ALL_TOOLS = Object.values(TOOLSETS).flat();

import { callTool, errorOf } from '../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime } from '../support/test-runtime.js';

const T0 = '2026-12-01T09:00:00Z';
const T1 = '2026-12-01T10:00:00Z';

/** One wrong call per tool, and the field its INVALID_INPUT must name. */
const WRONG_INPUTS: readonly [tool: string, args: Record<string, unknown>, field: string][] = [
  ['get_temporal_context', { timezone: 42 }, 'timezone'],
  ['resolve_datetime', {}, 'expression'],
  ['convert_timezone', { datetime: T0, target_timezone: 5 }, 'target_timezone'],
  ['compute_duration', { start: T0 }, 'end'],
  ['adjust_timestamp', { datetime: T0, adjustment: 7 }, 'adjustment'],
  [
    'expand_rrule',
    { rrule: 'FREQ=DAILY', dtstart: '2026-12-01T09:00:00', timezone: 'UTC', count: 0 },
    'count',
  ],
  ['list_calendars', { provider: 'exchange' }, 'provider'],
  ['list_events', { max_results: 0 }, 'max_results'],
  ['get_event', { event_id: '' }, 'event_id'],
  ['create_event', { summary: 'Review', start: 20261201, end: T1 }, 'start'],
  ['update_event', { event_id: 'e1', status: 'done' }, 'status'],
  ['batch_update_events', { updates: [{ summary: 'Renamed' }] }, 'updates.0.event_id'],
  ['delete_event', { event_id: 'e1', scope: 'everything' }, 'scope'],
  ['quick_add_event', { text: 3 }, 'text'],
  ['create_calendar', { summary: '' }, 'summary'],
  ['manage_attendees', { event_id: 'e1', add_attendees: ['not-an-email'] }, 'add_attendees.0'],
  ['respond_to_event', { event_id: 'e1', response: 'maybe' }, 'response'],
  ['find_free_time', { calendar_ids: [], start: T0, end: T1 }, 'calendar_ids'],
  ['find_free_slots', { calendar_id: 'native/x', start: T0, end: T1, working_hours: '9-5' }, 'working_hours'],
  ['check_availability', { calendar_id: 'native/x', start: 1, end: T1 }, 'start'],
  ['get_availability', { start: T0, end: T1, privacy: 'secret' }, 'privacy'],
  ['book_slot', { calendar_id: 'native/x', start: {}, end: T1, summary: 'Call' }, 'start'],
  ['list_projects', { include_archived: 'yes' }, 'include_archived'],
  ['create_project', { name: 'Acme', color: 'blue' }, 'color'],
  ['update_project', { project_id: 'prj_1', rounding: { minutes: 15, mode: 'down' } }, 'rounding.mode'],
  ['create_rule', { query: 'domain:acme.com', project_id: 'prj_1', weight: 1.5 }, 'weight'],
  ['create_classification_rule', { project_id: 'prj_1', conditions: [] }, 'conditions'],
  ['update_rule', { rule_id: 'rul_1', if_version: 0 }, 'if_version'],
  ['delete_rule', { rule_id: '' }, 'rule_id'],
  ['list_rules', { format: 'xml' }, 'format'],
  ['preview_rule', { query: 'title:x', limit: 501 }, 'limit'],
  ['classify_event', { calendar_id: 'native/x', event_id: 'e1', project_id: 'prj_1', scope: 'all' }, 'scope'],
  ['explain_classification', { calendar_id: 'native/x' }, 'event_id'],
  ['get_timesheet', { start: T0, end: T1, group_by: 'month' }, 'group_by'],
  ['get_rule_suggestions', { calendar_ids: [] }, 'calendar_ids'],
  ['create_rule_from_description', { description: '' }, 'description'],
  ['create_snapshot', { project_id: 'no spaces!' }, 'project_id'],
  ['list_snapshots', { project_id: 'a/b' }, 'project_id'],
  ['restore_snapshot', { project_id: 'prj_1', snapshot_id: 'latest' }, 'snapshot_id'],
  ['sync_to_cloud', { project_id: 'prj_1', force: 'yes' }, 'force'],
  ['sync_from_cloud', { project_id: 'prj_1', force: 1 }, 'force'],
  ['initialize_context', { project_path: '/p', mode: 'deep' }, 'mode'],
  ['create_branch', { project_id: 'prj_1', branch_topic: '' }, 'branch_topic'],
  ['list_branches', { project_id: 'prj/1' }, 'project_id'],
  ['update_memory', { project_id: 'prj_1', branch_id: 'b1', content: 'x', role: 'system' }, 'role'],
  ['get_active_summary', { project_id: 'prj_1', git_branch: 'a b' }, 'git_branch'],
  ['load_context', { project_id: 'prj_1' }, 'branch_id'],
  [
    'link_git_branch',
    { project_id: 'prj_1', cortex_branch_id: 'b1', git_branch_name: 'x..y' },
    'git_branch_name',
  ],
  ['verify_response', { project_id: 'prj_1', response_text: 7 }, 'response_text'],
  ['suggest_contexts', { project_id: 'prj_1', current_context: 'cache', top_k: 0 }, 'top_k'],
  ['accept_suggestions', { project_id: 'prj_1', session_id: 'sug_1', context_ids: [] }, 'context_ids'],
  ['reject_suggestions', { project_id: 'prj_1', session_id: 'session-1', reason: 'x' }, 'session_id'],
  ['get_automation_status', { project_id: 'prj 1' }, 'project_id'],
  ['get_context_graph_info', { project_id: 'prj_1', limit: 500 }, 'limit'],
  ['search_context', { project_id: 'prj_1', query: 'cache', filter_category: 'bugs' }, 'filter_category'],
];

/** Fields an agent must fill with a value of a particular form, for which "text" is no example. */
const SPECIFIC_VALUE = /(^|_)ids?$|zone|^start$|^end$|datetime|date_time|^after$|^before$|exdates|_time$/;

/**
 * Every tool's INVALID_INPUT says which field is wrong, what it expects and gives an example,
 * through the SDK's real Client over HTTP.
 */
describe('INVALID_INPUT messages of every tool', () => {
  let served: ServedRuntime;
  let agent: Client;

  const errorFor = async (name: string, args: Record<string, unknown>) =>
    errorOf(await callTool(agent, name, args)) as {
      code: string;
      message: string;
      problems: { field: string; problem: string }[];
    };

  beforeAll(async () => {
    served = await serveRuntime(
      await startTestRuntime({ clock: fixedClock('2026-11-01T12:00:00Z'), defaultTimezone: 'UTC' }),
    );
    agent = (await served.connect('agent')).client;
  });

  afterAll(() => served?.close());

  it('covers every tool the server lists', async () => {
    const { tools } = await agent.listTools();

    expect(WRONG_INPUTS.map(([tool]) => tool).sort()).toEqual(tools.map((t) => t.name).sort());
    expect(tools).toHaveLength(ALL_TOOLS.length);
  });

  it.each(WRONG_INPUTS)(
    '%s: names the field, the shape expected and an example',
    async (tool, args, field) => {
      const error = await errorFor(tool, args);

      expect(error.code).toBe('INVALID_INPUT');
      const problem = error.problems.find((p) => p.field === field);
      expect(problem, JSON.stringify(error.problems)).toBeDefined();
      expect(problem?.problem).toMatch(/expected .+ e\.g\. \S+/);
      expect(problem?.problem).not.toMatch(/^Invalid input$/);
      expect(error.message).toContain(`"${field}": ${problem?.problem}`);
    },
  );

  it.each(ALL_TOOLS.map((tool) => tool.name))(
    '%s: refuses an unknown field, naming the closest known one',
    async (tool) => {
      const known = Object.keys(ALL_TOOLS.find((t) => t.name === tool)!.input.shape);
      const typo = `${known[0]!}x`;

      const error = await errorFor(tool, { [typo]: 'anything' });

      expect(error.code).toBe('INVALID_INPUT');
      const problem = error.problems.find((p) => p.field === typo);
      expect(problem?.problem).toContain(`did you mean "${known[0]}"`);
      expect(problem?.problem).toMatch(/e\.g\. \S+/);
    },
  );

  it.each(ALL_TOOLS.map((tool) => tool.name))(
    '%s: offers a JSON value as each field’s example, one of the right kind for ids, instants and zones',
    async (tool) => {
      const fields = Object.keys(ALL_TOOLS.find((t) => t.name === tool)!.input.shape);
      const checked: string[] = [];

      for (const field of fields) {
        // null is the wrong type for every field that is not nullable.
        const error = await errorFor(tool, { [field]: null });
        const problem = error.problems?.find((p) => p.field === field) as
          | { field: string; example?: string }
          | undefined;
        if (problem?.example === undefined) continue;
        checked.push(field);

        expect(() => JSON.parse(problem.example!), `${field}: ${problem.example}`).not.toThrow();
        if (SPECIFIC_VALUE.test(field)) expect(problem.example, field).not.toMatch(/^\[?"text"\]?$/);
      }
      expect(checked.length).toBeGreaterThan(0);
    },
  );

  it('lists the fields there are when an unknown one resembles none of them', async () => {
    const error = await errorFor('check_availability', {
      calendar_id: 'native/x',
      start: T0,
      end: T1,
      format: 'json',
    });

    expect(error.problems).toEqual([
      {
        field: 'format',
        problem: 'unknown field: remove it; the fields here are "calendar_id", "start", "end"',
      },
    ]);
  });
});
