import type { Principal } from '../../access/rights.js';
import { DomainError } from '../../errors.js';
import { untrustedMarks } from '../../firewall/untrusted-text.js';
import { echo } from '../../input-limits.js';
import type { FolderScan, FolderScanMode, HostFolder } from '../../ports/index.js';
import { projectResource } from '../../rules/project-access.js';
import type { Project } from '../../rules/project-store.js';
import type { MemoryServiceDeps } from '../memory-service.js';
import { folderKey } from '../store/memory-keys.js';
import { redactSecrets } from '../store/redact-secrets.js';
import { locateFolder } from './host-folders.js';
import { findOrCreateProjectForPath, normalizedPath } from './project-for-path.js';

export interface InitializeContextInput {
  project_path: string;
  mode: FolderScanMode | 'none';
  files: readonly { path: string; content: string }[];
}

/**
 * What happened to the folder: read here; not read because this server reads no folder of the
 * caller's (the path only names the project); or not asked.
 */
export type ScanOutcome = 'folder' | 'unavailable' | 'skipped';

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

const SEND_FILES = 'send the files as files: [{path, content}]';

/**
 * initialize_context: finds the caller's project for a folder path, or creates it and grants it
 * to the calling key; then stores the project's files — read from the folder where the caller may
 * read it on this machine (host-folders.ts), and those the agent sent — with secrets redacted
 * first. The folder is located and scanned before anything is written, so a scan that fails
 * creates nothing: no project, no grant, no path row.
 */
export async function initializeContext(
  deps: MemoryServiceDeps,
  principal: Principal,
  input: InitializeContextInput,
): Promise<InitializeContextResult> {
  const path = normalizedPath(input.project_path);
  const location = await locateFolder(deps.folders, principal, path);
  if (location.status === 'escapes') {
    throw new DomainError(
      'FORBIDDEN',
      `${echo(path)} leads out of the folders this server reads for you (through a symbolic link); ${SEND_FILES}.`,
      { field: 'project_path', http_status: 403 },
    );
  }
  const folder = location.status === 'found' ? location.folder : undefined;
  const scanned = await scanFolder(deps, folder, input.mode, location.status === 'missing');
  if (scanned === undefined) throw notAProjectFolder(path);

  const { project, created } = await findOrCreateProjectForPath(deps, principal, path);
  await deps.access.requireRight(principal, projectResource(project.project_id), 'write');
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
  // Where .git/HEAD is read later: only a folder this caller could locate on this machine.
  if (folder) await deps.store.put({ ...folderKey(project.project_id), project_path: path });
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

/** The scan, or undefined when one was asked in the caller's reach and could not be done. */
async function scanFolder(
  deps: MemoryServiceDeps,
  folder: HostFolder | undefined,
  mode: InitializeContextInput['mode'],
  missing: boolean,
): Promise<(FolderScan & { outcome: ScanOutcome }) | undefined> {
  const none = { files: [], skipped: 0, truncated: false };
  if (mode === 'none') return { ...none, outcome: 'skipped' };
  if (missing) return undefined;
  if (!folder || !deps.folders) return { ...none, outcome: 'unavailable' };
  const scan = await deps.folders.scan(folder, mode);
  return scan && { ...scan, outcome: 'folder' };
}

function notAProjectFolder(path: string): DomainError {
  return new DomainError(
    'INVALID_INPUT',
    `No readable project folder at ${echo(path)} on this server (an absolute path to a folder with .git, ` +
      `package.json, README.md…). Nothing was created: pass mode "none" to create the project without ` +
      `reading it, or ${SEND_FILES}.`,
    { field: 'project_path', expected: 'a readable project folder', example: '/home/ann/shop' },
  );
}
