import type { McpServerDeps } from '../../mcp/deps.js';
import { getTimesheetTool } from '../../mcp/tools/rules/get-timesheet.js';
import { listProjectsTool } from '../../mcp/tools/rules/list-projects.js';
import { listRulesTool } from '../../mcp/tools/rules/list-rules.js';
import { previewRuleTool } from '../../mcp/tools/rules/preview-rule.js';
import { type CliOutput, UsageError } from './access-commands.js';
import { runCliTool, runCliToolText } from './cli-tool.js';

export const RULES_USAGE = `Usage:
  meridian rules list                                  every rule, with what it matched 30 days back to 30 ahead
  meridian rules test "QUERY" [--start T] [--end T] [--limit N]   what a query matches (default: 30 days back to 30 ahead)`;

/** Whole numbers as numbers; anything else as typed, for the tool to refuse with its message. */
function numberFlag(text: string | undefined): number | string | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : text;
}

/**
 * `meridian rules list` and `meridian rules test "QUERY"`, as the local owner, through list_rules
 * and preview_rule. A query that does not parse stops the command with the parser's message,
 * whose caret line points at the spot to fix.
 */
export async function rulesCommand(
  runtime: McpServerDeps,
  args: string[],
  flags: { start?: string | undefined; end?: string | undefined; limit?: string | undefined },
  out: CliOutput,
): Promise<void> {
  const [action, query] = args;
  if (action === 'list') {
    const [{ output }, names] = await Promise.all([
      runCliTool(runtime, listRulesTool, { format: 'json' }),
      projectNames(runtime),
    ]);
    if (output.rules.length === 0)
      return out.line(
        'No rules yet. Try a query with `meridian rules test "QUERY"`, then save it with create_rule.',
      );
    for (const rule of output.rules) {
      out.line(
        `${rule.rule_id}  ${names.get(rule.project_id) ?? rule.project_id}  weight ${rule.weight}  ` +
          `matched ${rule.events_matched}, won ${rule.events_won}  ${rule.query}`,
      );
      for (const warning of rule.warnings) out.line(`    ${warning.code}: ${warning.message}`);
    }
    return;
  }
  if (action === 'test') {
    if (query === undefined) throw new UsageError(`rules test needs a QUERY.\n${RULES_USAGE}`);
    const { output } = await runCliTool(runtime, previewRuleTool, {
      query,
      start: flags.start,
      end: flags.end,
      limit: numberFlag(flags.limit),
      format: 'json',
    });
    out.line(`${output.query}: ${output.total_matched} events, ${output.minutes_matched} minutes`);
    out.line(`(${output.window.start} to ${output.window.end})`);
    for (const match of output.matches)
      out.line(
        `  ${match.start}  ${match.summary || '(untitled)'}  [${match.calendar_id}]  ${match.matched_conditions.join(' ')}`,
      );
    if (output.total_matched > output.matches.length)
      out.line(`Showing ${output.matches.length} of ${output.total_matched}: --limit N shows more.`);
    return;
  }
  throw new UsageError(RULES_USAGE);
}

async function projectNames(runtime: McpServerDeps): Promise<Map<string, string>> {
  const { output } = await runCliTool(runtime, listProjectsTool, { include_archived: true, format: 'json' });
  return new Map(output.projects.map((p) => [p.project_id, p.name]));
}

export const TIMESHEET_USAGE =
  'Usage: meridian timesheet [--week 2026-W48 | --start T --end T] [--group-by project|day|week|calendar] [--csv]';

/** Minutes as hours and minutes, the way timesheets show them: 90 → "1:30". */
export function hoursText(minutes: number): string {
  const whole = Math.round(minutes);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * `meridian timesheet`: one ISO week (default the current one, in the configured zone) or a
 * window, through get_timesheet, as a table or (--csv) as the tool's CSV.
 */
export async function timesheetCommand(
  runtime: McpServerDeps & { calendars: { zone: string }; clock: { now(): Date } },
  flags: {
    week?: string | undefined;
    start?: string | undefined;
    end?: string | undefined;
    'group-by'?: string | undefined;
    csv?: boolean | undefined;
  },
  out: CliOutput,
): Promise<void> {
  if (flags.week !== undefined && (flags.start ?? flags.end) !== undefined)
    throw new UsageError(`Pass --week or --start and --end, not both.\n${TIMESHEET_USAGE}`);
  if ((flags.start === undefined) !== (flags.end === undefined))
    throw new UsageError(`--start and --end go together.\n${TIMESHEET_USAGE}`);
  const { isoWeekOf, isoWeekWindow } = await import('../../core/rules/iso-week.js');
  const zone = runtime.calendars.zone;
  const window =
    flags.start !== undefined
      ? { week: undefined, start: flags.start, end: flags.end }
      : isoWeekWindow(flags.week ?? isoWeekOf(runtime.clock.now(), zone), zone);
  const asked = { start: window.start, end: window.end, group_by: flags['group-by'] };
  if (flags.csv)
    return out.line((await runCliToolText(runtime, getTimesheetTool, { ...asked, format: 'csv' })).trimEnd());
  const { output } = await runCliTool(runtime, getTimesheetTool, { ...asked, format: 'json' });
  const title = window.week ? `Timesheet ${window.week}` : 'Timesheet';
  out.line(
    `${title} (${output.window.start} to ${output.window.end}, ${output.time_zone}), by ${output.group_by}`,
  );
  const rows = [
    ['', 'hours', 'rounded', 'billable', 'events'],
    ...output.groups.map((g) => [
      g.label,
      hoursText(g.raw_minutes),
      hoursText(g.rounded_minutes),
      hoursText(g.billable_minutes),
      String(g.events),
    ]),
    [
      'Total',
      hoursText(output.totals.raw_minutes),
      hoursText(output.totals.rounded_minutes),
      hoursText(output.totals.billable_minutes),
      String(output.totals.events),
    ],
  ];
  const width = Math.max(...rows.map((row) => row[0]!.length));
  for (const row of rows)
    out.line(
      `${row[0]!.padEnd(width)}  ${row
        .slice(1)
        .map((cell) => cell.padStart(8))
        .join('  ')}`,
    );
  const { unclassified } = output;
  if (unclassified.events > 0) {
    out.line(`Unclassified: ${hoursText(unclassified.minutes)} in ${unclassified.events} events; largest:`);
    for (const cluster of unclassified.clusters)
      out.line(`  ${cluster.label}  ${hoursText(cluster.minutes)} (${cluster.events})`);
  }
}
