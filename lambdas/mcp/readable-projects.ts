import type { Principal } from '../core/access/rights.js';
import type { Project } from '../core/rules/project-store.js';
import type { RulesSlice } from './deps.js';

/**
 * The projects a principal may read, archived ones included, by name: what the timesheet
 * resources list, and what the `project` completions and prompts offer. The one place the
 * MCP surface decides project visibility, so resources, prompts and completions cannot disagree.
 */
export async function readableProjects(deps: RulesSlice, principal: Principal): Promise<Project[]> {
  const projects = await deps.rules.projects.list({ includeArchived: true });
  // TODO(rtools grants): keep only the projects the key holds a read grant on, with the
  // project-access check of wt-rtools, once merged. Until then every key sees every project.
  void principal;
  return projects;
}

/** One project if the principal may read it; undefined when it does not exist or is not theirs to read. */
export async function readableProject(
  deps: RulesSlice,
  principal: Principal,
  projectId: string,
): Promise<Project | undefined> {
  return (await readableProjects(deps, principal)).find((project) => project.project_id === projectId);
}
