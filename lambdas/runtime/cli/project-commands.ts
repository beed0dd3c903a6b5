import type { McpServerDeps } from '../../mcp/deps.js';
import { createProjectTool } from '../../mcp/tools/rules/create-project.js';
import { listProjectsTool } from '../../mcp/tools/rules/list-projects.js';
import { updateProjectTool } from '../../mcp/tools/rules/update-project.js';
import { type CliOutput, UsageError } from './access-commands.js';
import { type CliArguments, runCliTool } from './cli-tool.js';

/** The flags `meridian projects …` reads; every value comes as typed on the command line. */
export interface ProjectFlags {
  name?: string | undefined;
  client?: string | undefined;
  color?: string | undefined;
  billable?: string | undefined;
  rounding?: string | undefined;
  archived?: string | undefined;
  clear?: string | undefined;
  all?: boolean | undefined;
}

interface ProjectView {
  project_id: string;
  name: string;
  client?: string;
  color?: string;
  billable: boolean;
  rounding?: { minutes: number; mode: 'up' | 'nearest' };
  archived: boolean;
}

export const PROJECTS_USAGE = `Usage:
  meridian projects list [--all]              active projects (--all: archived ones too)
  meridian projects create --name NAME [--client C] [--color #rrggbb] [--billable yes|no] [--rounding 15:up|6:nearest]
  meridian projects update PROJECT_ID [--name N] [--client C] [--color #rrggbb] [--billable yes|no]
                           [--rounding M:up|M:nearest] [--archived yes|no] [--clear client,color,rounding]
  meridian projects archive PROJECT_ID`;

function yesNo(flag: string, text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (/^(yes|true)$/i.test(text)) return true;
  if (/^(no|false)$/i.test(text)) return false;
  throw new UsageError(`--${flag} takes yes or no (e.g. --${flag} yes), not "${text}".`);
}

/** `15:up`, `6:nearest`, or `15` (up: time trackers round billed time up by default). */
function rounding(text: string | undefined): { minutes: number; mode: string } | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)(?::(\w+))?$/.exec(text.trim());
  if (!match)
    throw new UsageError(`--rounding takes MINUTES:up or MINUTES:nearest (e.g. 15:up), not "${text}".`);
  // Range and mode are the tool's to check, so its message says what to fix.
  return { minutes: Number(match[1]), mode: match[2] ?? 'up' };
}

/** The tool arguments the flags set; a flag left out is undefined, which the tool reads as absent. */
function fieldsFrom(flags: ProjectFlags): CliArguments<typeof updateProjectTool.input> {
  return {
    name: flags.name,
    client: flags.client,
    color: flags.color,
    billable: yesNo('billable', flags.billable),
    rounding: rounding(flags.rounding),
    archived: yesNo('archived', flags.archived),
    clear: flags.clear?.split(',').map((field) => field.trim()),
  };
}

/** One line per project: id, name and the fields a timesheet uses. */
export function projectLine(project: ProjectView): string {
  return [
    project.project_id,
    project.name,
    project.client ? `client: ${project.client}` : '',
    project.billable ? 'billable' : 'not billable',
    project.rounding ? `rounds to ${project.rounding.minutes} min (${project.rounding.mode})` : '',
    project.color ?? '',
    project.archived ? '(archived)' : '',
  ]
    .filter(Boolean)
    .join('  ');
}

/**
 * `meridian projects list|create|update|archive`, as the local owner, through the project
 * tools (list_projects, create_project, update_project): the same checks and messages as MCP.
 */
export async function projectsCommand(
  runtime: McpServerDeps,
  args: string[],
  flags: ProjectFlags,
  out: CliOutput,
): Promise<void> {
  const [action, projectId] = args;
  if (action === 'list') {
    const { output } = await runCliTool(runtime, listProjectsTool, {
      include_archived: flags.all ?? false,
      format: 'json',
    });
    if (output.projects.length === 0)
      return out.line('No projects yet. Create one with `meridian projects create --name NAME`.');
    for (const project of output.projects) out.line(projectLine(project));
    return;
  }
  if (action === 'create') {
    if (!flags.name?.trim()) throw new UsageError(`projects create needs --name NAME.\n${PROJECTS_USAGE}`);
    const { archived: _archived, clear: _clear, ...fields } = fieldsFrom(flags);
    const { output } = await runCliTool(runtime, createProjectTool, fields);
    out.line(`Created ${projectLine(output.project)}`);
    out.line(`Classify time into it with \`meridian rules test "QUERY"\` and the create_rule tool.`);
    return;
  }
  if (action === 'update' || action === 'archive') {
    if (!projectId) throw new UsageError(`projects ${action} needs a PROJECT_ID.\n${PROJECTS_USAGE}`);
    const fields = action === 'archive' ? { archived: true } : fieldsFrom(flags);
    if (Object.values(fields).every((value) => value === undefined))
      throw new UsageError(`projects update needs a field to change.\n${PROJECTS_USAGE}`);
    const { output } = await runCliTool(runtime, updateProjectTool, {
      project_id: projectId,
      ...fields,
    });
    out.line(`${action === 'archive' ? 'Archived' : 'Updated'} ${projectLine(output.project)}`);
    return;
  }
  throw new UsageError(PROJECTS_USAGE);
}
