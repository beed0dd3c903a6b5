import type { AccessStore } from '../../access/access-store.js';
import { type Principal, principalName } from '../../access/rights.js';
import { sanitizeText } from '../../firewall/sanitize-text.js';
import { ConditionFailedError, type DocumentStore, type ItemKey, sha256Hex } from '../../ports/index.js';
import { ProjectAccess } from '../../rules/project-access.js';
import type { Project, ProjectStore } from '../../rules/project-store.js';
import { projectPathKey } from '../store/memory-keys.js';

export interface ProjectForPathDeps {
  store: DocumentStore;
  projects: ProjectStore;
  access: AccessStore;
}

const encoder = new TextEncoder();

/** The folder path as a lookup key: trailing separators do not make another project. */
export const normalizedPath = (path: string) => path.trim().replace(/[\\/]+$/, '') || path.trim();

/**
 * The project's display name from its folder: the last path segment (a name, never its identity),
 * under the one rule for stored text — a path is caller input like any project name.
 */
const folderName = (path: string) =>
  sanitizeText(normalizedPath(path).split(/[\\/]/).filter(Boolean).pop() ?? '')
    .text.trim()
    .slice(0, 200) || 'project';

/**
 * The caller's project for a folder path: its identity is the whole normalised path, per
 * principal — two folders named `.ssh` in two homes are two projects, and one principal's path
 * never leads another principal's files into its project. The same path twice finds the same
 * project; the first call creates it and grants it to the calling key.
 */
export async function findOrCreateProjectForPath(
  deps: ProjectForPathDeps,
  principal: Principal,
  path: string,
): Promise<{ project: Project; created: boolean }> {
  const ownKey = pathKey(`${principalName(principal)}\n${path}`);
  const projectAccess = new ProjectAccess(deps.access);
  const rights = await projectAccess.rightsOf(principal);
  const own = await writableProject(deps, ownKey, (id) => rights.allows(id, 'write'));
  if (own) return { project: own, created: false };
  // Rows written before paths were per principal (one per path, for whichever principal came
  // first) are followed once, then rewritten as the caller's own: a key's only to a project it may
  // write; the owner's (who may write every project) only to one no key holds a grant on, so the
  // owner's folder never flows into a project a key made for that path.
  const legacy = await writableProject(deps, pathKey(path), async (id) => {
    if (!rights.allows(id, 'write')) return false;
    return principal.kind === 'api-key' || !(await grantedToAnyKey(deps.access, id));
  });
  if (legacy) {
    await deps.store.put({ ...ownKey, project_id: legacy.project_id });
    return { project: legacy, created: false };
  }

  const project = await deps.projects.create({ name: folderName(path) });
  await projectAccess.grantToCreator(principal, project.project_id);
  // Two first calls at once: the first row written keeps the path; the other project stays its caller's.
  await deps.store
    .put({ ...ownKey, project_id: project.project_id }, { condition: { op: 'not_exists' } })
    .catch((error: unknown) => {
      if (!(error instanceof ConditionFailedError)) throw error;
    });
  return { project, created: true };
}

const pathKey = (text: string) => projectPathKey(sha256Hex(encoder.encode(text)));

/** The project a path row names, if it exists and `usable` accepts it. */
async function writableProject(
  deps: ProjectForPathDeps,
  key: ItemKey,
  usable: (projectId: string) => boolean | Promise<boolean>,
): Promise<Project | undefined> {
  const row = await deps.store.get(key, { consistent: true });
  const projectId = typeof row?.project_id === 'string' ? row.project_id : undefined;
  if (projectId === undefined || !(await usable(projectId))) return undefined;
  return deps.projects.find(projectId);
}

/** True when some key holds a grant on the project (a read of every key's grants: legacy rows only). */
async function grantedToAnyKey(access: AccessStore, projectId: string): Promise<boolean> {
  for (const key of await access.listKeys()) {
    if ((await access.rightsOn(key.key_id, 'project')).has(projectId)) return true;
  }
  return false;
}
