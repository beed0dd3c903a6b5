import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Makes the data folder reachable by the user running Meridian only (docs/adr/0006): the folder
 * and every folder in it 0700, every file and socket 0600, and the process umask 077 so that what
 * LevelDB and the store create later (new table files, logs, the socket) is born private. The
 * embedded runtime owns its process, so the umask is its to set. Earlier versions left the store's
 * files world-readable: they are tightened here, on every start.
 *
 * @example
 * await makeDataDirPrivate(config.dataDir);
 */
export async function makeDataDirPrivate(dataDir: string): Promise<void> {
  process.umask(0o077);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await tighten(dataDir);
}

async function tighten(folder: string): Promise<void> {
  await chmod(folder, 0o700);
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    // Another process's store may remove a file (a compacted LevelDB table) while we walk.
    if (entry.isDirectory()) await tighten(path).catch(ignoreVanished);
    else await chmod(path, 0o600).catch(ignoreVanished);
  }
}

function ignoreVanished(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
