import { expect } from 'vitest';
import type { Grant, Right } from '../../lambdas/core/access/rights.js';
import { TOOLSETS } from '../../lambdas/mcp/tools/index.js';

/** The resources a matrix run names: one calendar with an event, one project with its rule and memory. */
export interface MatrixIds {
  calendar: string;
  event: string;
  project: string;
  rule: string;
  branch: string;
  snapshot: string;
  session: string;
}

/** What a caller holds: its right on the calendar and on the project, and the toolsets it may use. */
export interface MatrixGrants {
  calendar: Grant;
  project: Grant;
  toolsets: readonly string[];
}

/** One tool's call, and the rights it needs on each resource it names. */
export interface MatrixRow {
  tool: string;
  args(ids: MatrixIds): Record<string, unknown>;
  needs: { calendar?: Right; project?: Right };
  /**
   * Found by its own id inside the project (a rule): a caller that may not read the project cannot
   * tell it from a missing one, so it is NOT_FOUND, not FORBIDDEN.
   * @default false
   */
  foundByOwnId?: boolean;
}

/** How a call must end for a caller: done, refused with a domain error, or not a tool of its connection. */
export type MatrixOutcome =
  | { kind: 'ok' }
  | { kind: 'refused'; code: 'FORBIDDEN'; missing_right: Right }
  | { kind: 'refused'; code: 'NOT_FOUND' }
  | { kind: 'not enabled' };

const window = { start: '2026-05-01T00:00:00Z', end: '2026-06-01T00:00:00Z' };
const slot = { start: '2026-05-04T14:00:00Z', end: '2026-05-04T15:00:00Z' };

/**
 * Every tool of every toolset, called on the run's calendar and project, with the rights each
 * needs. Checked below to name exactly the tools Meridian serves, so a new tool fails the matrix
 * until its grants are stated. What a caller with some grants must see is {@link expectedOutcome}.
 */
export const GRANT_MATRIX: readonly MatrixRow[] = [
  { tool: 'get_temporal_context', args: () => ({ timezone: 'Europe/London' }), needs: {} },
  { tool: 'resolve_datetime', args: () => ({ expression: 'next Tuesday at 2pm' }), needs: {} },
  {
    tool: 'convert_timezone',
    args: () => ({ datetime: '2026-03-08T06:30:00Z', target_timezone: 'Asia/Tokyo' }),
    needs: {},
  },
  { tool: 'compute_duration', args: () => window, needs: {} },
  {
    tool: 'adjust_timestamp',
    args: () => ({ datetime: '2026-03-08T01:00:00Z', adjustment: '+1d' }),
    needs: {},
  },
  {
    tool: 'expand_rrule',
    args: () => ({ rrule: 'FREQ=DAILY;COUNT=2', dtstart: '2026-03-02T09:00:00' }),
    needs: {},
  },

  { tool: 'list_calendars', args: () => ({ format: 'json' }), needs: {} },
  {
    tool: 'list_events',
    args: (ids) => ({ calendar_id: ids.calendar, ...window }),
    needs: { calendar: 'read' },
  },
  {
    tool: 'get_event',
    args: (ids) => ({ calendar_id: ids.calendar, event_id: ids.event }),
    needs: { calendar: 'read' },
  },
  {
    tool: 'create_event',
    args: (ids) => ({ calendar_id: ids.calendar, summary: 'Planted', ...slot }),
    needs: { calendar: 'write' },
  },
  {
    tool: 'update_event',
    args: (ids) => ({ calendar_id: ids.calendar, event_id: ids.event, summary: 'Hijacked' }),
    needs: { calendar: 'write' },
  },
  {
    tool: 'batch_update_events',
    args: (ids) => ({ calendar_id: ids.calendar, updates: [{ event_id: ids.event, summary: 'Hijacked' }] }),
    needs: { calendar: 'write' },
  },
  {
    tool: 'delete_event',
    args: (ids) => ({ calendar_id: ids.calendar, event_id: ids.event }),
    needs: { calendar: 'write' },
  },
  {
    tool: 'quick_add_event',
    args: (ids) => ({ calendar_id: ids.calendar, text: 'Coffee 2026-05-05 at 3pm' }),
    needs: { calendar: 'write' },
  },
  // A new calendar is the caller's own: no grant on another is needed.
  { tool: 'create_calendar', args: () => ({ summary: 'Own calendar' }), needs: {} },
  {
    tool: 'manage_attendees',
    args: (ids) => ({
      calendar_id: ids.calendar,
      event_id: ids.event,
      add_attendees: ['mallory@example.com'],
    }),
    needs: { calendar: 'write' },
  },
  {
    tool: 'respond_to_event',
    args: (ids) => ({ calendar_id: ids.calendar, event_id: ids.event, response: 'declined' }),
    needs: { calendar: 'write' },
  },

  {
    tool: 'find_free_time',
    args: (ids) => ({ calendar_ids: [ids.calendar], ...window }),
    needs: { calendar: 'read' },
  },
  {
    tool: 'find_free_slots',
    args: (ids) => ({ calendar_id: ids.calendar, ...window, working_hours: '09:00-17:00' }),
    needs: { calendar: 'read' },
  },
  {
    tool: 'check_availability',
    args: (ids) => ({ calendar_id: ids.calendar, ...slot }),
    needs: { calendar: 'read' },
  },
  {
    tool: 'get_availability',
    args: (ids) => ({ calendar_ids: [ids.calendar], ...window }),
    needs: { calendar: 'read' },
  },
  {
    tool: 'book_slot',
    args: (ids) => ({ calendar_id: ids.calendar, ...slot, summary: 'Booked' }),
    needs: { calendar: 'write' },
  },

  { tool: 'list_projects', args: () => ({ format: 'json' }), needs: {} },
  { tool: 'create_project', args: () => ({ name: 'Own project' }), needs: {} },
  {
    tool: 'update_project',
    args: (ids) => ({ project_id: ids.project, name: 'Mine now' }),
    needs: { project: 'write' },
  },
  {
    tool: 'create_rule',
    args: (ids) => ({ project_id: ids.project, query: 'title:planning' }),
    needs: { project: 'write' },
  },
  {
    tool: 'create_classification_rule',
    args: (ids) => ({ project_id: ids.project, conditions: [{ property: 'title', value: 'x' }] }),
    needs: { project: 'write' },
  },
  {
    tool: 'update_rule',
    args: (ids) => ({ rule_id: ids.rule, weight: 9 }),
    needs: { project: 'write' },
    foundByOwnId: true,
  },
  {
    tool: 'delete_rule',
    args: (ids) => ({ rule_id: ids.rule }),
    needs: { project: 'write' },
    foundByOwnId: true,
  },
  {
    tool: 'list_rules',
    args: (ids) => ({ project_id: ids.project, format: 'json' }),
    needs: { project: 'read' },
  },
  {
    tool: 'preview_rule',
    args: (ids) => ({ project_id: ids.project, query: 'title:planning', ...window }),
    needs: { project: 'read' },
  },
  {
    tool: 'classify_event',
    args: (ids) => ({ calendar_id: ids.calendar, event_id: ids.event, project_id: ids.project }),
    needs: { calendar: 'read', project: 'write' },
  },
  {
    tool: 'explain_classification',
    args: (ids) => ({ calendar_id: ids.calendar, event_id: ids.event }),
    needs: { calendar: 'read' },
  },
  {
    tool: 'get_timesheet',
    args: (ids) => ({ ...window, project_ids: [ids.project] }),
    needs: { project: 'read' },
  },
  { tool: 'get_rule_suggestions', args: () => window, needs: {} },
  {
    tool: 'create_rule_from_description',
    args: (ids) => ({ project_id: ids.project, description: 'meetings about planning' }),
    needs: { project: 'read' },
  },

  {
    tool: 'initialize_context',
    args: () => ({
      project_path: '/srv/own',
      mode: 'none',
      files: [{ path: 'README.md', content: '# Own' }],
    }),
    needs: {},
  },
  {
    tool: 'create_branch',
    args: (ids) => ({ project_id: ids.project, branch_topic: 'Planted' }),
    needs: { project: 'write' },
  },
  {
    tool: 'list_branches',
    args: (ids) => ({ project_id: ids.project, format: 'json' }),
    needs: { project: 'read' },
  },
  {
    tool: 'update_memory',
    args: (ids) => ({ project_id: ids.project, branch_id: ids.branch, role: 'user', content: 'Planted.' }),
    needs: { project: 'write' },
  },
  {
    tool: 'get_active_summary',
    args: (ids) => ({ project_id: ids.project, branch_id: ids.branch }),
    needs: { project: 'read' },
  },
  {
    tool: 'load_context',
    args: (ids) => ({ project_id: ids.project, branch_id: ids.branch }),
    needs: { project: 'read' },
  },
  {
    tool: 'link_git_branch',
    args: (ids) => ({ project_id: ids.project, cortex_branch_id: ids.branch, git_branch_name: 'feature/x' }),
    needs: { project: 'write' },
  },
  {
    tool: 'search_context',
    args: (ids) => ({ project_id: ids.project, query: 'ship' }),
    needs: { project: 'read' },
  },
  {
    tool: 'verify_response',
    args: (ids) => ({ project_id: ids.project, response_text: 'We ship on Friday.' }),
    needs: { project: 'read' },
  },
  {
    tool: 'suggest_contexts',
    args: (ids) => ({ project_id: ids.project, current_context: 'shipping' }),
    needs: { project: 'read' },
  },
  {
    tool: 'accept_suggestions',
    args: (ids) => ({ project_id: ids.project, session_id: ids.session, context_ids: [`ctx_${ids.branch}`] }),
    needs: { project: 'write' },
  },
  {
    tool: 'reject_suggestions',
    args: (ids) => ({ project_id: ids.project, session_id: ids.session, reason: 'Not now' }),
    needs: { project: 'write' },
  },
  { tool: 'get_automation_status', args: (ids) => ({ project_id: ids.project }), needs: { project: 'read' } },
  {
    tool: 'get_context_graph_info',
    args: (ids) => ({ project_id: ids.project }),
    needs: { project: 'read' },
  },
  { tool: 'create_snapshot', args: (ids) => ({ project_id: ids.project }), needs: { project: 'write' } },
  {
    tool: 'restore_snapshot',
    args: (ids) => ({ project_id: ids.project, snapshot_id: ids.snapshot }),
    needs: { project: 'write' },
  },
  { tool: 'list_snapshots', args: (ids) => ({ project_id: ids.project }), needs: { project: 'read' } },
  { tool: 'sync_to_cloud', args: (ids) => ({ project_id: ids.project }), needs: { project: 'write' } },
  { tool: 'sync_from_cloud', args: (ids) => ({ project_id: ids.project }), needs: { project: 'write' } },
];

const RANK: Record<Grant, number> = { none: 0, read: 1, write: 2 };

/** The toolset a tool belongs to. */
export function toolsetOf(tool: string): string {
  const found = Object.entries(TOOLSETS).find(([, tools]) => tools.some((t) => t.name === tool));
  if (!found) throw new Error(`${tool} is in no toolset`);
  return found[0];
}

/**
 * How `row` must end for a caller holding `grants`: not a tool of the connection when its toolset
 * is not enabled; else the first right it lacks, refused (NOT_FOUND for a thing found by its own
 * id in a project the caller may not read); else done.
 *
 * @example
 * expectedOutcome(row, { calendar: 'read', project: 'none', toolsets: ['calendar'] });
 */
export function expectedOutcome(row: MatrixRow, grants: MatrixGrants): MatrixOutcome {
  if (!grants.toolsets.includes(toolsetOf(row.tool))) return { kind: 'not enabled' };
  for (const kind of ['calendar', 'project'] as const) {
    const needed = row.needs[kind];
    if (!needed || RANK[grants[kind]] >= RANK[needed]) continue;
    if (row.foundByOwnId && grants[kind] === 'none') return { kind: 'refused', code: 'NOT_FOUND' };
    return { kind: 'refused', code: 'FORBIDDEN', missing_right: needed };
  }
  return { kind: 'ok' };
}

/** Fails unless the matrix names every tool Meridian serves, once. */
export function expectMatrixCoversEveryTool(): void {
  const served = Object.values(TOOLSETS)
    .flat()
    .map((tool) => tool.name);
  expect(GRANT_MATRIX.map((row) => row.tool).sort()).toEqual([...served].sort());
}
