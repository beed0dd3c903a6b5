import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/client';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { takesFormat } from '../../lambdas/mcp/tool-catalogue.js';
import { TOOLSETS } from '../../lambdas/mcp/tools/index.js';

const ALL_TOOLS = Object.values(TOOLSETS).flat();

import { type JsonSchema, type StringPools, schemaArbitrary } from '../support/json-schema-arbitrary.js';
import { connectInMemory } from '../support/mcp-client.js';
import { startSyncBucket } from '../support/sync-bucket.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';
import { insightSeedCalls } from './tool-fuzz-insight-seeds.js';
import { memoryPools, poolsWithIds } from './tool-fuzz-pools.js';

/**
 * Every tool, called through the real server with arguments generated from its published
 * inputSchema and with mutations of a valid call. Only three outcomes are acceptable: a result
 * that matches the tool's outputSchema, an isError result with a stable code, or JSON-RPC -32602.
 * Never -32603, never an error that repeats a long input in full, never a call that takes seconds.
 *
 * MERIDIAN_FUZZ_RUNS (default 12) sets the cases per tool for each of the two generators;
 * MERIDIAN_FUZZ_TOOLS (comma-separated names) limits a long run to some tools.
 */
const RUNS = Number(process.env.MERIDIAN_FUZZ_RUNS ?? 12);
const ONLY = process.env.MERIDIAN_FUZZ_TOOLS?.split(',').filter(Boolean);
/** A call slower than this is a finding: a 4 MB zone name once held the server for 13 s. */
const SLOW_CALL_MS = 5_000;
/** Longest run of an input string an error message may repeat. */
const ECHO_LIMIT = 200;

/** A timestamp with a year RFC 3339 cannot write: 0000, five digits, or signed. */
const OUT_OF_RANGE_TIMESTAMP = /^([+-]\d{4,}|\d{5,}|0000)-\d{2}-\d{2}T/;
/** Output fields that hold timestamps (free text such as a summary may look like one). */
const TIMESTAMP_KEY =
  /^(start|end|utc|local|date_time|original|next_after|created|updated)$|_(utc|local|start|end|at|time|transition)$/;

/** Every timestamp-valued string in a tool's output, with its key. */
function timestamps(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return TIMESTAMP_KEY.test(key) ? [value] : [];
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => timestamps(item, key));
  return Object.entries(value).flatMap(([name, item]) => timestamps(item, name));
}

type Outcome = 'result' | 'invalid_params' | `isError:${string}`;

const CALENDAR_FREE = new Set([
  'get_temporal_context',
  'resolve_datetime',
  'convert_timezone',
  'compute_duration',
  'adjust_timestamp',
  'expand_rrule',
]);

function seedCalls(
  calendarId: string,
  eventId: string,
  seriesId: string,
  rules: { projectId: string; ruleId: string; doomedRuleId: string },
): Record<string, object> {
  const window = { start: '2026-03-02T00:00:00Z', end: '2026-03-09T00:00:00Z' };
  const { projectId, ruleId, doomedRuleId } = rules;
  return {
    list_projects: { include_archived: true },
    create_project: { name: 'Fuzz project', rounding: { minutes: 15, mode: 'up' } },
    update_project: { project_id: projectId, billable: true },
    create_rule: { query: 'title:standup', project_id: projectId },
    create_classification_rule: {
      project_id: projectId,
      conditions: [{ property: 'domain', value: 'example.com' }],
    },
    update_rule: { rule_id: ruleId, weight: 3 },
    delete_rule: { rule_id: doomedRuleId },
    list_rules: { format: 'json' },
    preview_rule: { query: 'title:standup OR title:one-off', ...window, project_id: projectId },
    classify_event: { calendar_id: calendarId, event_id: eventId, project_id: projectId },
    explain_classification: { calendar_id: calendarId, event_id: `${seriesId}_20260303T140000Z` },
    get_timesheet: { ...window, group_by: 'day', format: 'csv' },
    get_rule_suggestions: window,
    create_rule_from_description: { description: 'standups on weekdays', project_id: projectId },
    get_temporal_context: { timezone: 'Europe/London' },
    resolve_datetime: { expression: 'next Tuesday at 2pm', timezone: 'America/New_York' },
    convert_timezone: { datetime: '2026-03-08T06:30:00Z', target_timezone: 'America/New_York' },
    compute_duration: { start: '2026-03-01T00:00:00Z', end: '2026-03-09T00:00:00-04:00' },
    adjust_timestamp: {
      datetime: '2026-03-08T01:00:00-05:00',
      adjustment: '+1d',
      timezone: 'America/New_York',
    },
    expand_rrule: {
      rrule: 'FREQ=WEEKLY;BYDAY=MO,WE',
      dtstart: '2026-03-02T09:00:00',
      timezone: 'Europe/Berlin',
    },
    list_calendars: { format: 'json' },
    list_events: { calendar_id: calendarId, ...window },
    get_event: { calendar_id: calendarId, event_id: eventId },
    create_event: {
      calendar_id: calendarId,
      summary: 'Fuzz',
      start: { date_time: '2026-03-03T10:00:00Z' },
      end: { date_time: '2026-03-03T11:00:00Z' },
    },
    update_event: { calendar_id: calendarId, event_id: eventId, location: 'Room 2' },
    batch_update_events: { calendar_id: calendarId, updates: [{ event_id: eventId, location: 'Room 3' }] },
    delete_event: { calendar_id: calendarId, event_id: `${seriesId}_20260304T140000Z` },
    quick_add_event: { calendar_id: calendarId, text: 'Lunch with Alice tomorrow at noon' },
    create_calendar: { summary: 'Fuzz calendar', time_zone: 'Asia/Kathmandu' },
    manage_attendees: { calendar_id: calendarId, event_id: eventId, add_attendees: ['bob@example.com'] },
    respond_to_event: { calendar_id: calendarId, event_id: eventId, response: 'declined' },
    find_free_time: { calendar_ids: [calendarId], ...window },
    find_free_slots: { calendar_id: calendarId, ...window, working_hours: '09:00-17:00' },
    check_availability: {
      calendar_id: calendarId,
      start: '2026-03-02T10:00:00Z',
      end: '2026-03-02T11:00:00Z',
    },
    get_availability: { calendar_ids: [calendarId], ...window },
    book_slot: {
      calendar_id: calendarId,
      start: '2026-03-05T10:00:00Z',
      end: '2026-03-05T11:00:00Z',
      summary: 'Fuzz',
    },
  };
}

/** Valid calls of the memory tools on a project and branch made for the run. */
function memorySeedCalls(projectId: string, branchId: string): Record<string, object> {
  const ids = { project_id: projectId, branch_id: branchId };
  return {
    initialize_context: {
      project_path: '/srv/fuzz',
      mode: 'light',
      files: [{ path: 'README.md', content: '# Fuzz' }],
    },
    create_branch: { project_id: projectId, branch_topic: 'Fuzz topic' },
    list_branches: { project_id: projectId },
    update_memory: { ...ids, role: 'assistant', content: 'Fixed the fuzz bug.' },
    get_active_summary: ids,
    load_context: ids,
    link_git_branch: { project_id: projectId, cortex_branch_id: branchId, git_branch_name: 'feature/fuzz' },
    create_snapshot: { project_id: projectId, description: 'Fuzz' },
    list_snapshots: { project_id: projectId },
    sync_to_cloud: { project_id: projectId },
    sync_from_cloud: { project_id: projectId },
    search_context: { ...ids, query: 'fuzz bug', filter_category: 'bug_fix' },
  };
}

/** Arguments that are not an object at all: the request itself is malformed. */
const notAnObject = fc.oneof(
  fc.string(),
  fc.array(fc.jsonValue({ maxDepth: 1 })),
  fc.integer(),
  fc.boolean(),
);

/** One change to a valid call: a field dropped, replaced by a pooled or random value, or added. */
function mutationOf(seed: Record<string, unknown>, pools: StringPools): fc.Arbitrary<unknown> {
  const keys = Object.keys(seed);
  const pooled = fc.constantFrom(...Object.values(pools).flat());
  const value = fc.oneof(
    { weight: 3, arbitrary: pooled },
    fc.jsonValue({ maxDepth: 2 }),
    pooled.map((text) => ({ date_time: text })),
    pooled.map((text) => [text]),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...keys).map((key) => ({ ...seed, [key]: undefined })) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), fc.constantFrom(...keys), value)
        .map(([key, other, replacement]) => {
          const fieldPool = pools[key];
          return { ...seed, [key]: replacement, ...(fieldPool ? { [other]: seed[other] } : {}) };
        }),
    },
    { weight: 2, arbitrary: fc.tuple(fc.string(), value).map(([key, extra]) => ({ ...seed, [key]: extra })) },
    { weight: 1, arbitrary: notAnObject },
  );
}

/** Every string of at least ECHO_LIMIT characters inside `value`. */
function longStrings(value: unknown): string[] {
  if (typeof value === 'string') return value.length >= ECHO_LIMIT ? [value] : [];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(longStrings);
}

describe('every tool under generated and mutated arguments', () => {
  let runtime: TestRuntime;
  let bucket: Awaited<ReturnType<typeof startSyncBucket>>;
  let client: Client;
  let tools: Tool[];
  let seeds: Record<string, object>;
  let pools: StringPools;
  /** Writes an entry to the run's memory project. */
  let changeMemory: () => Promise<unknown>;
  const tally = new Map<string, Map<Outcome, number>>();
  /** The slowest call of each tool, reported after a long run. */
  const slowest = new Map<string, { ms: number; args: string }>();

  beforeAll(async () => {
    bucket = await startSyncBucket();
    runtime = await startTestRuntime({
      memorySync: { cloud: bucket.cloud },
      clock: fixedClock('2026-03-01T12:00:00Z'),
      defaultTimezone: 'America/New_York',
      // Generated paths must not walk this machine's folders.
      projectFolders: null,
    });
    const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, {
      name: 'Fuzz',
      time_zone: 'America/New_York',
      owner_email: 'owner@example.com',
    });
    const event = await runtime.calendars.createEvent(LOCAL_OWNER, calendar.id, {
      summary: 'One-off',
      start: { date_time: '2026-03-02T15:00:00Z' },
      end: { date_time: '2026-03-02T16:00:00Z' },
      // The owner is invited, so respond_to_event has an answer to record.
      attendees: [{ email: 'owner@example.com' }],
    });
    const series = await runtime.calendars.createEvent(LOCAL_OWNER, calendar.id, {
      summary: 'Standup',
      start: { date_time: '2026-03-02T09:00:00-05:00', time_zone: 'America/New_York' },
      end: { date_time: '2026-03-02T09:15:00-05:00', time_zone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=30'],
    });
    const project = await runtime.rules.createProject(LOCAL_OWNER, { name: 'Fuzz' });
    const rule = (query: string) =>
      runtime.rules.createRule(LOCAL_OWNER, { query, project_id: project.project_id });
    seeds = seedCalls(calendar.id, event.id, series.id, {
      projectId: project.project_id,
      ruleId: (await rule('title:standup')).rule_id,
      doomedRuleId: (await rule('title:doomed')).rule_id,
    });
    const memoryProject = (await runtime.rules.projects.create({ name: 'Fuzz memory' })).project_id;
    const memoryBranch = (await runtime.memory.createBranch(LOCAL_OWNER, memoryProject, { topic: 'Fuzz' }))
      .branch_id;
    Object.assign(
      seeds,
      memorySeedCalls(memoryProject, memoryBranch),
      await insightSeedCalls(runtime, memoryProject, memoryBranch),
      {
        restore_snapshot: {
          project_id: memoryProject,
          snapshot_id: (await runtime.snapshots.create(LOCAL_OWNER, memoryProject)).snapshot_id,
        },
      },
    );
    let changes = 0;
    changeMemory = () =>
      runtime.memory.updateMemory(LOCAL_OWNER, memoryProject, {
        branch_id: memoryBranch,
        role: 'user',
        content: `Fuzz change ${++changes}.`,
      });
    const childBranch = await runtime.memory.createBranch(LOCAL_OWNER, memoryProject, {
      topic: 'Fuzz child',
      parent_branch_id: memoryBranch,
    });
    const { accept_suggestions: accepted, reject_suggestions: rejected } = seeds as Record<
      string,
      { session_id: string; context_ids?: string[] }
    >;
    pools = {
      ...poolsWithIds(calendar.id, [event.id, series.id]),
      ...memoryPools({
        projectId: memoryProject,
        branchIds: [memoryBranch, childBranch.branch_id],
        snapshotId: (seeds.restore_snapshot as { snapshot_id: string }).snapshot_id,
        sessionIds: [accepted!.session_id, rejected!.session_id],
        contextIds: accepted!.context_ids ?? [],
        entryId: (
          await runtime.memory.updateMemory(LOCAL_OWNER, memoryProject, {
            branch_id: childBranch.branch_id,
            role: 'user',
            content: 'Replace me: the fuzz run rewrites this entry.',
          })
        ).entry.entry_id,
      }),
    };
    client = await connectInMemory(runtime, 'fuzz');
    tools = (await client.listTools()).tools;
  });

  afterAll(async () => {
    await client?.close();
    await runtime?.close();
    await bucket?.close();
    for (const [tool, outcomes] of tally) {
      const total = [...outcomes.values()].reduce((sum, n) => sum + n, 0);
      const slow = slowest.get(tool);
      console.log(`fuzz ${tool}: ${total} calls`, Object.fromEntries(outcomes));
      if (total > 1) console.log(`fuzz ${tool}: slowest ${slow?.ms.toFixed(0)} ms for ${slow?.args}`);
    }
  });

  async function callAndClassify(name: string, args: unknown): Promise<Outcome> {
    const started = performance.now();
    let outcome: Outcome;
    try {
      const result = await client.request(
        { method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } },
        CallToolResultSchema,
      );
      const [first] = result.content;
      const text = first?.type === 'text' ? first.text : '';
      if (result.isError) {
        const code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
        expect(code, text.slice(0, 500)).toMatch(/^[A-Z][A-Z_]+$/);
        for (const long of longStrings(args)) expect(text).not.toContain(long.slice(0, ECHO_LIMIT));
        outcome = `isError:${code as string}`;
      } else if (result.structuredContent === undefined) {
        // A TOON or CSV answer is text only; only a tool that takes format may give one.
        const definition = ALL_TOOLS.find((tool) => tool.name === name)!;
        expect(takesFormat(definition), name).toBe(true);
        expect((args as { format?: unknown }).format, name).not.toBe('json');
        expect(text.length, name).toBeGreaterThan(0);
        outcome = 'result';
      } else {
        const definition = ALL_TOOLS.find((tool) => tool.name === name)!;
        const output = definition.output.safeParse(result.structuredContent);
        expect(output.success, JSON.stringify(output.error?.issues)).toBe(true);
        // Every timestamp a tool returns is RFC 3339: four-digit years 0001–9999.
        for (const timestamp of timestamps(result.structuredContent)) {
          expect(timestamp).not.toMatch(OUT_OF_RANGE_TIMESTAMP);
        }
        outcome = 'result';
      }
    } catch (error) {
      const described = `${name}(${JSON.stringify(args)?.slice(0, 300)}) → ${String(error)}`;
      expect(
        error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams,
        described,
      ).toBe(true);
      expect((error as ProtocolError).message.length, described).toBeLessThan(1000);
      outcome = 'invalid_params';
    }
    const elapsed = performance.now() - started;
    if (elapsed > (slowest.get(name)?.ms ?? -1))
      slowest.set(name, { ms: elapsed, args: JSON.stringify(args)?.slice(0, 200) ?? String(args) });
    expect(elapsed, `${name} took too long`).toBeLessThan(SLOW_CALL_MS);
    const outcomes = tally.get(name) ?? new Map<Outcome, number>();
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    tally.set(name, outcomes);
    return outcome;
  }

  const names = ALL_TOOLS.map((tool) => tool.name).filter((name) => !ONLY || ONLY.includes(name));
  // Calendar tools write (events, calendars, bookings); a long run gives them a tenth of the cases.
  const runsFor = (name: string) => (CALENDAR_FREE.has(name) || RUNS <= 50 ? RUNS : Math.ceil(RUNS / 10));
  // A whole property's time, not a call's (SLOW_CALL_MS bounds each call): a long run of a tool whose
  // calls grow the memory they read (a sync fingerprints all of it) needs more than ten minutes.
  const PROPERTY_TIMEOUT_MS = Math.max(600_000, ...names.map((name) => runsFor(name) * 250));

  // Before any fuzzing: fuzzed calls may delete the events these calls name.
  it('answers a valid call of every tool with a result', async () => {
    for (const tool of ALL_TOOLS)
      expect(await callAndClassify(tool.name, seeds[tool.name]), tool.name).toBe('result');
  });

  /**
   * A sync of unchanged memory moves nothing: these tools see a new entry before each fuzzed call,
   * so uploads, pulls over local changes and the daily quotas are reached too.
   */
  const CHANGE_MEMORY_FIRST = new Set(['sync_to_cloud', 'sync_from_cloud']);
  const fuzzCall = async (name: string, args: unknown) => {
    if (CHANGE_MEMORY_FIRST.has(name)) await changeMemory();
    await callAndClassify(name, args);
  };

  it.each(names)(
    '%s answers arguments generated from its inputSchema',
    async (name) => {
      const schema = tools.find((tool) => tool.name === name)!.inputSchema as JsonSchema;
      const args = schemaArbitrary(schema, '', { pools, maxArrayItems: 3 });
      await fc.assert(
        fc.asyncProperty(args, (value) => fuzzCall(name, value)),
        { numRuns: runsFor(name) },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it.each(names)(
    '%s answers mutations of a valid call',
    async (name) => {
      const seed = seeds[name] as Record<string, unknown>;
      await fc.assert(
        fc.asyncProperty(mutationOf(seed, pools), (value) => fuzzCall(name, value)),
        { numRuns: runsFor(name) },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
