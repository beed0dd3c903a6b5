import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLSETS } from '../../lambdas/mcp/tools/index.js';
import { callTool, errorOf, okTool, type ToolOutput } from '../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime } from '../support/test-runtime.js';

/**
 * Finding 10b of issue 18: a write whose answer was lost (kill -9, a dropped connection) did land,
 * and the client's retry wrote it again. Each write tool takes an idempotency_key: a retry with
 * the key returns the first answer and writes nothing more; the key with other arguments is refused.
 */

let served: ServedRuntime;
let agent: Client;
let calendarId: string;
let projectId: string;
let branchId: string;

beforeAll(async () => {
  served = await serveRuntime(await startTestRuntime({ defaultTimezone: 'UTC' }));
  ({ client: agent } = await served.connect('agent'));
  calendarId = (await okTool(agent, 'create_calendar', { summary: 'Work' })).calendar_id;
  projectId = (await okTool(agent, 'create_project', { name: 'Acme' })).project.project_id;
  branchId = (await okTool(agent, 'create_branch', { project_id: projectId, branch_topic: 'Setup' }))
    .branch_id;
});

afterAll(async () => {
  await served?.close();
});

interface KeyedTool {
  tool: string;
  /** Arguments of the first call, and other arguments for the same key. */
  args: () => Record<string, unknown>;
  other: () => Record<string, unknown>;
  /** The id the answer names. */
  idOf: (output: ToolOutput) => string;
  /** How many of what the tool writes are stored now. */
  count: () => Promise<number>;
}

const json = { format: 'json' };
const eventArgs = (summary: string) => ({
  calendar_id: calendarId,
  summary,
  start: { date_time: '2027-03-10T09:00:00Z' },
  end: { date_time: '2027-03-10T10:00:00Z' },
});
const events = async () =>
  (
    await okTool(agent, 'list_events', {
      calendar_id: calendarId,
      start: '2027-03-01T00:00:00Z',
      end: '2027-04-01T00:00:00Z',
      max_results: 100,
      ...json,
    })
  ).events.length as number;
const rules = async () =>
  (await okTool(agent, 'list_rules', { project_id: projectId, ...json })).rules.length;

const KEYED: KeyedTool[] = [
  {
    tool: 'create_event',
    args: () => eventArgs('Review'),
    other: () => eventArgs('Another review'),
    idOf: (output) => output.event_id,
    count: events,
  },
  {
    tool: 'quick_add_event',
    args: () => ({ calendar_id: calendarId, text: 'Lunch with Alice 2027-03-11 at noon' }),
    other: () => ({ calendar_id: calendarId, text: 'Lunch with Bob 2027-03-11 at noon' }),
    idOf: (output) => output.event_id,
    count: events,
  },
  {
    tool: 'create_calendar',
    args: () => ({ summary: 'Team' }),
    other: () => ({ summary: 'Other team' }),
    idOf: (output) => output.calendar_id,
    count: async () => (await okTool(agent, 'list_calendars', json)).calendars.length,
  },
  {
    tool: 'create_project',
    args: () => ({ name: 'Globex' }),
    other: () => ({ name: 'Initech' }),
    idOf: (output) => output.project.project_id,
    count: async () => (await okTool(agent, 'list_projects', json)).projects.length,
  },
  {
    tool: 'create_rule',
    args: () => ({ project_id: projectId, query: 'domain:acme.com' }),
    other: () => ({ project_id: projectId, query: 'domain:globex.com' }),
    idOf: (output) => output.rule.rule_id,
    count: rules,
  },
  {
    tool: 'create_classification_rule',
    args: () => ({ project_id: projectId, conditions: [{ property: 'title', value: 'standup' }] }),
    other: () => ({ project_id: projectId, conditions: [{ property: 'title', value: 'retro' }] }),
    idOf: (output) => output.rule.rule_id,
    count: rules,
  },
  {
    tool: 'create_branch',
    args: () => ({ project_id: projectId, branch_topic: 'Billing' }),
    other: () => ({ project_id: projectId, branch_topic: 'Invoices' }),
    idOf: (output) => output.branch_id,
    count: async () =>
      (await okTool(agent, 'list_branches', { project_id: projectId, limit: 100, ...json })).branches.length,
  },
  {
    tool: 'update_memory',
    args: () => ({ project_id: projectId, branch_id: branchId, role: 'user', content: 'Ship on Friday.' }),
    other: () => ({ project_id: projectId, branch_id: branchId, role: 'user', content: 'Ship on Monday.' }),
    idOf: (output) => output.entry_id,
    count: async () =>
      (await okTool(agent, 'load_context', { project_id: projectId, branch_id: branchId })).metadata
        .message_count,
  },
  {
    tool: 'create_snapshot',
    args: () => ({ project_id: projectId, description: 'Before the launch' }),
    other: () => ({ project_id: projectId, description: 'After the launch' }),
    idOf: (output) => output.snapshot_id,
    count: async () =>
      (await okTool(agent, 'list_snapshots', { project_id: projectId, ...json })).snapshots.length,
  },
];

describe('idempotency_key on the write tools', () => {
  for (const keyed of KEYED) {
    it(`${keyed.tool}: a retry with the key returns the first answer and stores one record`, async () => {
      const key = `retry-${keyed.tool}`;
      const before = await keyed.count();

      const first = await okTool(agent, keyed.tool, { ...keyed.args(), idempotency_key: key });
      const retried = await okTool(agent, keyed.tool, { idempotency_key: key, ...keyed.args() });

      expect(keyed.idOf(retried)).toBe(keyed.idOf(first));
      expect(retried).toEqual(first);
      expect(await keyed.count()).toBe(before + 1);
    });

    it(`${keyed.tool}: the same key with other arguments is refused, and nothing is written`, async () => {
      const key = `reused-${keyed.tool}`;
      await okTool(agent, keyed.tool, { ...keyed.args(), idempotency_key: key });
      const before = await keyed.count();

      const refused = await callTool(agent, keyed.tool, { ...keyed.other(), idempotency_key: key });

      expect(errorOf(refused)).toMatchObject({ code: 'INVALID_INPUT', field: 'idempotency_key' });
      expect(errorOf(refused).message).toContain(
        `already used for a ${keyed.tool} call with other arguments`,
      );
      expect(await keyed.count()).toBe(before);
    });
  }

  it('keeps one key of two API keys apart, and a call without a key writes each time', async () => {
    const { client: other } = await served.connect('other');
    const otherCalendar = (await okTool(other, 'create_calendar', { summary: 'Mine', idempotency_key: 'k' }))
      .calendar_id;
    const mine = (await okTool(agent, 'create_calendar', { summary: 'Mine', idempotency_key: 'k' }))
      .calendar_id;
    const before = await events();

    await okTool(agent, 'create_event', eventArgs('Unkeyed'));
    await okTool(agent, 'create_event', eventArgs('Unkeyed'));

    expect(mine).not.toBe(otherCalendar);
    expect(await events()).toBe(before + 2);
  });

  it('is offered by exactly the write tools that are not idempotent by nature', () => {
    const keyed = [...new Set(Object.values(TOOLSETS).flat())]
      .filter((tool) => 'idempotency_key' in tool.input.shape)
      .map((tool) => tool.name)
      .sort();

    expect(keyed).toEqual([...KEYED.map((tool) => tool.tool), 'book_slot'].sort());
    for (const tool of Object.values(TOOLSETS).flat())
      expect([tool.name, tool.idempotencyKey === true]).toEqual([
        tool.name,
        'idempotency_key' in tool.input.shape && tool.name !== 'book_slot',
      ]);
  });
});
