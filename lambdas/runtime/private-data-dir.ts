import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { assertPrivate, type PrivacyCheck } from '../adapters/files/private-path.js';

/** The embedded runtime's master key, in the data folder; its own check refuses it when others can read it. */
export const MASTER_KEY_FILE = 'master.key';

/**
 * Makes the data folder reachable by the user running Meridian only (docs/adr/0006): the folder
 * and every folder in it 0700, every file and socket 0600, and the process umask 077 so that what
 * LevelDB and the store create later (new table files, logs, the socket) is born private. The
 * embedded runtime owns its process, so the umask is its to set. Earlier versions left the store's
 * files readable by others: they are tightened here, on every start.
 *
 * A folder another user owns or may write is refused instead, and nothing in it is changed: its
 * content (a master key, a store) may be someone else's, and a root process would otherwise adopt
 * it without a word. The whole tree is checked before any mode changes.
 *
 * @example
 * await makeDataDirPrivate(config.dataDir);
 */
export async function makeDataDirPrivate(dataDir: string): Promise<void> {
  process.umask(0o077);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // stat, not lstat: a data folder given as a symlink is judged by the folder it leads to.
  assertPrivate(dataDir, await stat(dataDir), dataFolderCheck(dataDir, 'The data folder'));
  const entries = await checkedEntries(dataDir, dataDir);
  await chmod(dataDir, 0o700);
  for (const entry of entries) {
    if (entry.name === MASTER_KEY_FILE && entry.folder === dataDir) continue;
    // Another process's store may remove a file (a compacted LevelDB table) while we walk.
    await chmod(entry.path, entry.info.isDirectory() ? 0o700 : 0o600).catch(ignoreVanished);
  }
}

interface Entry {
  folder: string;
  name: string;
  path: string;
  info: Stats;
}

/** Every entry under `folder`, each refused unless the running user owns it and others cannot write it. */
async function checkedEntries(folder: string, dataDir: string): Promise<Entry[]> {
  const found: Entry[] = [];
  const names = await readdir(folder).catch(ignoreVanishedWith([] as string[]));
  for (const name of names) {
    const path = join(folder, name);
    const info = await lstat(path).catch(ignoreVanishedWith(undefined));
    // A symlink is neither followed nor changed: in a folder only this user can write, only this
    // user can have made it, and chmod through it would change whatever it points at.
    if (!info || info.isSymbolicLink()) continue;
    assertPrivate(path, info, dataFolderCheck(dataDir, 'The entry'));
    found.push({ folder, name, path, info });
    if (info.isDirectory()) found.push(...(await checkedEntries(path, dataDir)));
  }
  return found;
}

function dataFolderCheck(dataDir: string, what: string): PrivacyCheck {
  const uid = process.getuid?.() ?? 0;
  return {
    what,
    fix: {
      owner: `chown -R ${uid} "${dataDir}" && chmod -R go-w "${dataDir}"`,
      mode: `chmod -R go-w "${dataDir}"`,
    },
    otherwise: 'choose another --data-dir (MERIDIAN_DATA_DIR)',
  };
}

function ignoreVanished(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

function ignoreVanishedWith<T>(fallback: T): (error: NodeJS.ErrnoException) => T {
  return (error) => {
    ignoreVanished(error);
    return fallback;
  };
}
