import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLog } from '../../../lambdas/core/audit/audit-log.js';
import type { AuditRecord } from '../../../lambdas/core/audit/audit-record.js';
import { verifyChain } from '../../../lambdas/core/audit/verify-chain.js';
import { allToolsCatalogue } from '../../../lambdas/mcp/tools/index.js';
import { requestGuards } from '../../../lambdas/runtime/compose-guards.js';
import { parseEnvironment } from '../../../lambdas/runtime/environment.js';
import { type CallToolResult, callTool, type ToolOutput } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime } from '../../support/test-runtime.js';

/** What earlier calls made, for later ones to name. */
type Made = Record<string, string>;

interface WriteCall {
  tool: string;
  args: (made: Made) => Record<string, unknown>;
  /** Keeps ids from the answer for the calls after it. */
  keep?: (output: ToolOutput) => Made;
  /** How the call ends in this runtime: `ok`, or `refused` (a domain error). @default 'ok' */
  ends?: 'ok' | 'refused';
  /** Calls made first, whose own records are not this tool's. */
  prepare?: (agent: Client, made: Made) => Promise<void>;
}

const at = (hour: number) => ({ date_time: `2027-03-10T${String(hour).padStart(2, '0')}:00:00Z` });

/**
 * Every write tool, called once in an order where each finds what it needs. The list must name
 * exactly the tools whose annotations say `readOnlyHint: false` (checked below), so a new write
 * tool fails this test until it is shown to leave its record.
 */
const WRITES: WriteCall[] = [
  {
    tool: 'create_calendar',
    args: () => ({ summary: 'Team', owner_email: 'owner@example.com' }),
    keep: (o) => ({ calendar: o.calendar_id }),
  },
  {
    tool: 'create_event',
    args: (m) => ({
      calendar_id: m.calendar,
      summary: 'Review',
      start: at(9),
      end: at(10),
      attendees: ['owner@example.com'],
    }),
    keep: (o) => ({ event: o.event_id }),
  },
  {
    tool: 'update_event',
    args: (m) => ({ calendar_id: m.calendar, event_id: m.event, summary: 'Design review' }),
  },
  {
    tool: 'batch_update_events',
    args: (m) => ({ calendar_id: m.calendar, updates: [{ event_id: m.event, location: 'Room 1' }] }),
  },
  {
    tool: 'manage_attendees',
    args: (m) => ({ calendar_id: m.calendar, event_id: m.event, add_attendees: ['ann@example.com'] }),
  },
  {
    tool: 'respond_to_event',
    args: (m) => ({ calendar_id: m.calendar, event_id: m.event, response: 'tentative' }),
  },
  {
    tool: 'quick_add_event',
    args: (m) => ({ calendar_id: m.calendar, text: 'Lunch with Alice 2027-03-11 at noon' }),
    keep: (o) => ({ lunch: o.event_id }),
  },
  { tool: 'delete_event', args: (m) => ({ calendar_id: m.calendar, event_id: m.lunch }) },
  {
    tool: 'book_slot',
    args: (m) => ({ calendar_id: m.calendar, start: at(14), end: at(15), summary: 'Booked' }),
  },
  {
    tool: 'create_project',
    args: () => ({ name: 'Globex' }),
    keep: (o) => ({ project: o.project.project_id }),
  },
  { tool: 'update_project', args: (m) => ({ project_id: m.project, client: 'Globex Corp' }) },
  {
    tool: 'create_rule',
    args: (m) => ({ project_id: m.project, query: 'domain:globex.com' }),
    keep: (o) => ({ rule: o.rule.rule_id }),
  },
  {
    tool: 'create_classification_rule',
    args: (m) => ({ project_id: m.project, conditions: [{ property: 'title', value: 'standup' }] }),
    keep: (o) => ({ rule2: o.rule.rule_id }),
  },
  { tool: 'update_rule', args: (m) => ({ rule_id: m.rule, weight: 5 }) },
  { tool: 'delete_rule', args: (m) => ({ rule_id: m.rule2 }) },
  {
    tool: 'classify_event',
    args: (m) => ({ calendar_id: m.calendar, event_id: m.event, project_id: m.project }),
  },
  {
    tool: 'initialize_context',
    args: () => ({
      project_path: '/home/ann/shop',
      mode: 'none',
      files: [{ path: 'README.md', content: '# Shop' }],
    }),
    keep: (o) => ({ memory: o.project_id }),
  },
  {
    tool: 'create_branch',
    args: (m) => ({ project_id: m.memory, branch_topic: 'Billing' }),
    keep: (o) => ({ branch: o.branch_id }),
  },
  {
    tool: 'update_memory',
    args: (m) => ({
      project_id: m.memory,
      branch_id: m.branch,
      role: 'user',
      content: 'Ship invoices on Friday.',
    }),
  },
  {
    tool: 'link_git_branch',
    args: (m) => ({ project_id: m.memory, cortex_branch_id: m.branch, git_branch_name: 'feature/billing' }),
  },
  {
    tool: 'suggest_contexts',
    args: (m) => ({ project_id: m.memory, current_context: 'invoices' }),
    keep: (o) => ({ session: o.session_id, suggested: o.suggestions?.[0]?.context_id }),
  },
  {
    tool: 'accept_suggestions',
    args: (m) => ({ project_id: m.memory, session_id: m.session, context_ids: [m.suggested] }),
  },
  {
    tool: 'reject_suggestions',
    // A session takes one piece of feedback: this one gets a session of its own.
    prepare: async (agent, m) => {
      const answer = await callTool(agent, 'suggest_contexts', {
        project_id: m.memory,
        current_context: 'billing',
      });
      m.session = String(answer.structuredContent?.session_id);
    },
    args: (m) => ({ project_id: m.memory, session_id: m.session, reason: 'Not today' }),
  },
  {
    tool: 'create_snapshot',
    args: (m) => ({ project_id: m.memory }),
    keep: (o) => ({ snapshot: o.snapshot_id }),
  },
  { tool: 'restore_snapshot', args: (m) => ({ project_id: m.memory, snapshot_id: m.snapshot }) },
  // This runtime has no sync bucket: the calls are refused, and each still leaves its one record.
  { tool: 'sync_to_cloud', args: (m) => ({ project_id: m.memory }), ends: 'refused' },
  { tool: 'sync_from_cloud', args: (m) => ({ project_id: m.memory }), ends: 'refused' },
];

async function allRecords(audit: AuditLog): Promise<AuditRecord[]> {
  const days = await audit.days();
  return (await Promise.all(days.map((day) => audit.records(day)))).flat();
}

describe('the audit log over HTTP: every write tool of every toolset', { timeout: 120_000 }, () => {
  let served: ServedRuntime;
  let audit: AuditLog;
  let agent: Client;
  let keyId: string;
  const made: Made = {};

  beforeAll(async () => {
    const runtime = await startTestRuntime();
    const guards = requestGuards(
      runtime,
      parseEnvironment({
        MERIDIAN_RATE_LIMIT: 'off',
        MERIDIAN_EXPENSIVE_RATE_LIMIT: 'off',
      }),
    );
    audit = guards.audit!;
    served = await serveRuntime({ ...runtime, ...guards });
    ({ client: agent, keyId } = await served.connect('agent'));
  });
  afterAll(async () => served?.close());

  it('lists exactly the tools whose annotations mark them as writes', async () => {
    const listing = await allToolsCatalogue.listing();
    const writes = Object.values(listing)
      .flat()
      .filter((tool) => tool.annotations?.readOnlyHint === false)
      .map((tool) => tool.name);
    expect(WRITES.map((w) => w.tool).sort()).toEqual(writes.sort());
  });

  for (const write of WRITES) {
    it(`${write.tool} leaves exactly one record, completed with how it ended`, async () => {
      await write.prepare?.(agent, made);
      const before = (await allRecords(audit)).length;
      const result: CallToolResult = await callTool(agent, write.tool, write.args(made));
      const expected = write.ends ?? 'ok';
      expect(result.isError ? 'refused' : 'ok', JSON.stringify(result.content)).toBe(expected);
      if (!result.isError) Object.assign(made, write.keep?.(result.structuredContent as ToolOutput));

      const records = await allRecords(audit);
      expect(records).toHaveLength(before + 1);
      const record = records.at(-1)!;
      expect(record).toMatchObject({
        action: write.tool,
        principal: `key:${keyId}`,
        source: 'tool',
        status: 'completed',
        completion: { outcome: expected },
      });
      expect(record.request_id).toMatch(/\S/);
    });
  }

  it('leaves read-only calls out, and a chain that verifies', async () => {
    const before = (await allRecords(audit)).length;
    await callTool(agent, 'list_calendars', {});
    await callTool(agent, 'get_temporal_context', {});
    expect(await allRecords(audit)).toHaveLength(before);
    for (const day of await audit.days())
      expect(verifyChain(day, await audit.records(day)).problems).toEqual([]);
  });
});
