import type { Principal } from '../access/rights.js';
import { untrustedMarks } from '../firewall/untrusted-text.js';
import { ConditionFailedError, type FolderScanMode } from '../ports/index.js';
import { ProjectAccess, projectResource } from '../rules/project-access.js';
import type { Project } from '../rules/project-store.js';
import { sha256Hex } from './blob-store.js';
import { folderKey, projectPathKey } from './memory-keys.js';
import type { MemoryServiceDeps } from './memory-service.js';
import { redactSecrets } from './redact-secrets.js';

export interface InitializeContextInput {
  project_path: string;
  mode: FolderScanMode | 'none';
  files: readonly { path: string; content: string }[];
}

/** What happened to the folder: read here, not readable here, no folder access in this runtime, or not asked. */
export type ScanOutcome = 'folder' | 'folder_unreadable' | 'unavailable' | 'skipped';

export interface InitializeContextResult {
  project: Project;
  project_created: boolean;
  scan: ScanOutcome;
  files_scanned: number;
  files_from_agent: number;
  files_skipped: number;
  scan_truncated: boolean;
  secrets_redacted: number;
}

const encoder = new TextEncoder();

/** The folder path as a lookup key: trailing separators do not make another project. */
const normalizedPath = (path: string) => path.trim().replace(/[\\/]+$/, '') || path.trim();

/** The project's display name from its folder: the last path segment. */
const folderName = (path: string) =>
  normalizedPath(path).split(/[\\/]/).filter(Boolean).pop()?.slice(0, 200) ?? 'project';

/**
 * initialize_context: finds the caller's project for a folder (by the path it was initialised
 * with, else by name among projects the caller may write), or creates it and grants it to the
 * calling key; then stores the project's files — read from the folder where this runtime can
 * (embedded), and those the agent sent — with secrets redacted first.
 */
export async function initializeContext(
  deps: MemoryServiceDeps,
  principal: Principal,
  input: InitializeContextInput,
): Promise<InitializeContextResult> {
  const path = normalizedPath(input.project_path);
  const { project, created } = await findOrCreateProject(deps, principal, path);
  await deps.access.requireRight(principal, projectResource(project.project_id), 'write');

  const scanned = await scanFolder(deps, path, input.mode);
  const files = [
    ...scanned.files.map((file) => ({ ...file, source: 'folder' as const })),
    ...input.files.map((file) => ({ ...file, source: 'agent' as const })),
  ];
  let secrets = 0;
  const redacted = files.map((file) => {
    const result = redactSecrets(file.content);
    secrets += result.redactions.reduce((sum, r) => sum + r.count, 0);
    // A README can carry instructions for the agent that reads it: stored, flagged.
    return { ...file, content: result.text, untrusted: untrustedMarks(result.text) };
  });
  await deps.memory.putFiles(project.project_id, redacted);
  await deps.store.put({ ...folderKey(project.project_id), project_path: path });
  return {
    project,
    project_created: created,
    scan: scanned.outcome,
    files_scanned: scanned.files.length,
    files_from_agent: input.files.length,
    files_skipped: scanned.skipped,
    scan_truncated: scanned.truncated,
    secrets_redacted: secrets,
  };
}

async function findOrCreateProject(
  deps: MemoryServiceDeps,
  principal: Principal,
  path: string,
): Promise<{ project: Project; created: boolean }> {
  const pathKey = projectPathKey(sha256Hex(encoder.encode(path)));
  const rights = await new ProjectAccess(deps.access).rightsOf(principal);
  const writable = (projectId: string) => rights.allows(projectId, 'write');
  const byPath = await deps.store.get(pathKey, { consistent: true });
  const pathProjectId = typeof byPath?.project_id === 'string' ? byPath.project_id : undefined;
  if (pathProjectId !== undefined && writable(pathProjectId)) {
    const project = await deps.projects.find(pathProjectId);
    if (project) return { project, created: false };
  }
  const name = folderName(path);
  const byName = (await deps.projects.list()).find(
    (p) => p.name.toLowerCase() === name.toLowerCase() && writable(p.project_id),
  );
  if (byName) return { project: byName, created: false };

  const project = await deps.projects.create({ name });
  await new ProjectAccess(deps.access).grantToCreator(principal, project.project_id);
  // The first project made for a path keeps it; another key's project for the same path is found by name.
  await deps.store
    .put({ ...pathKey, project_id: project.project_id }, { condition: { op: 'not_exists' } })
    .catch((error: unknown) => {
      if (!(error instanceof ConditionFailedError)) throw error;
    });
  return { project, created: true };
}

async function scanFolder(deps: MemoryServiceDeps, path: string, mode: InitializeContextInput['mode']) {
  const none = { files: [], skipped: 0, truncated: false };
  if (mode === 'none') return { ...none, outcome: 'skipped' as const };
  if (!deps.folders) return { ...none, outcome: 'unavailable' as const };
  const scan = await deps.folders.scan(path, mode);
  return scan ? { ...scan, outcome: 'folder' as const } : { ...none, outcome: 'folder_unreadable' as const };
}
