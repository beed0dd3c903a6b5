import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { FolderLocation, FolderReach } from '../../core/ports/index.js';

/** A folder the administrator lets remote callers' project folders lie in: as written, and real. */
export interface ListedFolder {
  readonly path: string;
  readonly real: string;
}

/**
 * The listed folders of `serve --scan-folder` / MERIDIAN_SCAN_FOLDERS, each resolved once at
 * start: a folder that is missing or not a directory stops the server with a message naming
 * `source`, rather than silently reading nothing.
 *
 * @example
 * await resolveListedFolders(['/srv/checkouts'], '--scan-folder'); // [{ path: '/srv/checkouts', real: '/srv/checkouts' }]
 */
export async function resolveListedFolders(
  paths: readonly string[],
  source: string,
): Promise<ListedFolder[]> {
  const listed: ListedFolder[] = [];
  for (const given of paths) {
    const path = resolve(given);
    const real = await realpath(path).catch(() => undefined);
    if (!real || !(await stat(real)).isDirectory()) {
      throw new Error(`${source}: "${given}" is not a folder on this machine. List existing folders only.`);
    }
    listed.push({ path, real });
  }
  return listed;
}

/**
 * Where `projectPath` is for a caller with `reach`. The path is resolved with realpath (every
 * component, symbolic links included); for `listed`, the path as written must lie in a listed
 * folder — else it is only a name, and nothing is looked up on the disk for it — and its real
 * path in that folder's real path.
 */
export async function locateHostFolder(
  projectPath: string,
  reach: FolderReach,
  listed: readonly ListedFolder[],
): Promise<FolderLocation> {
  if (!isAbsolute(projectPath)) return { status: reach === 'anywhere' ? 'missing' : 'outside' };
  const path = resolve(projectPath);
  const root =
    reach === 'anywhere' ? undefined : listed.find((f) => isWithin(path, f.path) || isWithin(path, f.real));
  if (reach === 'listed' && !root) return { status: 'outside' };
  if (root && (await leavesFolder(path, root))) return { status: 'escapes' };
  const real = await realpath(path).catch(() => undefined);
  if (root && real && !isWithin(real, root.real)) return { status: 'escapes' };
  const isFolder = real
    ? await stat(real).then(
        (s) => s.isDirectory(),
        () => false,
      )
    : false;
  if (!real || !isFolder) return { status: 'missing' };
  return { status: 'found', folder: { path: real, within: root?.real } };
}

/**
 * Whether `path`, resolved one component at a time from the listed folder, leaves it (through a
 * symbolic link) before its end. Resolved whole, a link out would make the server look at the
 * rest of the path outside — and "escapes" (it exists out there) against "missing" would tell a
 * remote caller whether any path on the disk exists. Here nothing past the first component that
 * leads out is looked at; a component that does not exist ends the walk (the caller may know
 * what is missing inside a listed folder).
 */
async function leavesFolder(path: string, root: ListedFolder): Promise<boolean> {
  const base = isWithin(path, root.path) ? root.path : root.real;
  let prefix = base;
  for (const part of relative(base, path).split(sep).filter(Boolean)) {
    prefix = join(prefix, part);
    const real = await realpath(prefix).catch(() => undefined);
    if (!real) return false;
    if (!isWithin(real, root.real)) return true;
  }
  return false;
}

/** True when `path` is `folder` or inside it (both absolute and normalised). */
export function isWithin(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (!isAbsolute(rest) && rest !== '..' && !rest.startsWith(`..${sep}`));
}
