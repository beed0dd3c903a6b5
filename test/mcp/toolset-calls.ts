import { expect } from 'vitest';
import { TOOLSET_NAMES, TOOLSETS } from '../../lambdas/mcp/tools/index.js';
import type { ToolOutput } from '../support/mcp-client.js';

/** What the calls of one run made, for the calls after them: the calendar, the project. */
export interface ChainState {
  tag: string;
  calendar_id?: string;
  project_id?: string;
}

/** One call of a toolset's tool, and the assertion that proves it did the work. */
export interface ToolsetCall {
  toolset: keyof typeof TOOLSETS;
  tool: string;
  args(state: ChainState): Record<string, unknown>;
  /** Asserts the answer; returns what later calls need from it. */
  check(output: ToolOutput, state: ChainState): Partial<ChainState>;
}

/**
 * A call of every toolset, in an order where each finds what it needs (a calendar for
 * availability, a project for memory). One table for every client that claims to reach every
 * toolset: the SDK's Client in each protocol era (protocol-eras.ts) and the MCP Inspector CLI.
 */
export const TOOLSET_CALLS: readonly ToolsetCall[] = [
  {
    toolset: 'time',
    tool: 'compute_duration',
    args: () => ({ start: '2026-03-16T13:00:00Z', end: '2026-03-16T21:30:00Z' }),
    check: (output) => {
      expect(output.total_seconds).toBe(30_600);
      return {};
    },
  },
  {
    toolset: 'calendar',
    tool: 'create_calendar',
    args: ({ tag }) => ({ summary: `Era ${tag}` }),
    check: (output) => {
      expect(output.calendar_id).toMatch(/^native\//);
      return { calendar_id: output.calendar_id };
    },
  },
  {
    toolset: 'availability',
    tool: 'check_availability',
    args: ({ calendar_id }) => ({ calendar_id, start: '2026-03-16T13:00:00Z', end: '2026-03-16T14:00:00Z' }),
    check: (output, { calendar_id }) => {
      expect(output).toMatchObject({ available: true, calendar_id });
      return {};
    },
  },
  {
    toolset: 'rules',
    tool: 'create_project',
    args: ({ tag }) => ({ name: `Era ${tag}` }),
    check: (output) => {
      expect(output.project?.project_id).toMatch(/^prj_/);
      return { project_id: output.project.project_id };
    },
  },
  {
    toolset: 'memory',
    tool: 'list_branches',
    args: ({ project_id }) => ({ project_id, format: 'json' }),
    check: (output) => {
      expect(output.total_branches).toBeGreaterThanOrEqual(0);
      return {};
    },
  },
];

/**
 * Runs TOOLSET_CALLS through `call` (a client's way of calling a tool and reading its
 * structuredContent), asserting each answer; first checks that the table still names a tool of
 * every toolset Meridian serves, and each tool under its own toolset, so a new toolset cannot go
 * untested by the real clients. `tag` keeps the names a run creates apart from another run's.
 *
 * @example
 * await callEveryToolset((tool, args) => okTool(client, tool, args), 'modern');
 */
export async function callEveryToolset(
  call: (tool: string, args: Record<string, unknown>) => Promise<ToolOutput>,
  tag: string,
): Promise<ChainState> {
  expect(TOOLSET_CALLS.map((entry) => entry.toolset)).toEqual(TOOLSET_NAMES);
  for (const entry of TOOLSET_CALLS)
    expect(
      TOOLSETS[entry.toolset].map((tool) => tool.name),
      entry.toolset,
    ).toContain(entry.tool);

  let state: ChainState = { tag };
  for (const entry of TOOLSET_CALLS) {
    const output = await call(entry.tool, entry.args(state));
    state = { ...state, ...entry.check(output, state) };
  }
  return state;
}
