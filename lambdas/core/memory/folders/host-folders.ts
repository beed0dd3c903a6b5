import type { Principal } from '../../access/rights.js';
import type { FolderLocation, FolderReach, ProjectFolderReader } from '../../ports/index.js';

/**
 * The one rule for every tool that reads the server's disk: its folders are its owner's. The
 * local owner (stdio, CLI) reaches any folder; every other principal — an API key over HTTP, and
 * any kind added later — only folders inside those the administrator lists (`serve
 * --scan-folder`). Outside its reach a path is only a name: nothing is looked up on the disk.
 */
export function folderReachOf(principal: Principal): FolderReach {
  return principal.kind === 'local-owner' ? 'anywhere' : 'listed';
}

/** Where `path` is for `principal`; `unavailable` when this runtime reads no folders at all. */
export async function locateFolder(
  folders: ProjectFolderReader | undefined,
  principal: Principal,
  path: string,
): Promise<FolderLocation | { status: 'unavailable' }> {
  if (!folders) return { status: 'unavailable' };
  return folders.locate(path, folderReachOf(principal));
}
