import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, posix, resolve } from 'node:path';
import type {
  FolderLocation,
  FolderReach,
  FolderScan,
  FolderScanMode,
  HostFolder,
  ProjectFolderReader,
} from '../../core/ports/index.js';
import { isIgnored, parseGitignore } from './gitignore.js';
import { isWithin, type ListedFolder, locateHostFolder } from './host-folder-locator.js';

/** Limits of one scan: a project folder is read, never a disk. */
export const FOLDER_SCAN_LIMITS = {
  /** Larger files are skipped (generated code, data, lock files). */
  fileBytes: 64 * 1024,
  totalBytes: 2 * 1024 * 1024,
  files: { light: 40, full: 400 },
} as const;

// A folder is scanned only when it looks like a project root, so a path like "/" or a home
// folder is refused rather than walked.
const PROJECT_MARKERS = [
  '.git',
  'package.json',
  'pyproject.toml',
  'setup.py',
  'Cargo.toml',
  'go.mod',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'Gemfile',
  'composer.json',
  'README.md',
];

// `light`: the README, entry points and configuration at the root and under src/.
const LIGHT_NAMES =
  /^(readme(\..*)?|package\.json|tsconfig(\..*)?\.json|pyproject\.toml|setup\.(py|cfg)|requirements\.txt|cargo\.toml|go\.mod|pom\.xml|build\.gradle(\.kts)?|gemfile|composer\.json|makefile|dockerfile|docker-compose\.ya?ml|[^/]*\.config\.[cm]?[jt]s|biome\.json|(index|main|app|server|lib|cli)\.[a-z]+)$/i;

// Never read: the repository's internals and dependency folders, even when no .gitignore says so.
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

interface Walk {
  files: { path: string; content: string }[];
  /** Every file already looked at, taken or skipped: the full scan's second pass passes them by. */
  seen: Set<string>;
  limit: number;
  skipped: number;
  truncated: boolean;
  bytes: number;
}

type Rules = readonly { base: string; rules: ReturnType<typeof parseGitignore> }[];

/**
 * The ProjectFolderReader of the embedded runtime: project folders on this machine, for its owner
 * anywhere and for remote callers inside the `listed` folders (resolveListedFolders). A scan never
 * follows a symbolic link inside the folder, skips dot-files (`.env` holds secrets) and anything
 * `.gitignore` ignores, and reads only UTF-8 text under the size limits.
 */
export class NodeProjectFolderReader implements ProjectFolderReader {
  constructor(private readonly listed: readonly ListedFolder[] = []) {}

  locate(projectPath: string, reach: FolderReach): Promise<FolderLocation> {
    return locateHostFolder(projectPath, reach, this.listed);
  }

  /**
   * `full` takes what `light` does first (the README, entry points, configuration), then the rest
   * breadth-first, shallow files before deep ones: a repository larger than the limits keeps its
   * README and package.json rather than the first 400 files of whichever folder sorts first.
   */
  async scan(folder: HostFolder, mode: FolderScanMode): Promise<FolderScan | undefined> {
    const root = await projectRoot(folder.path);
    if (!root) return undefined;
    const walk: Walk = {
      files: [],
      seen: new Set(),
      limit: FOLDER_SCAN_LIMITS.files[mode],
      skipped: 0,
      truncated: false,
      bytes: 0,
    };
    await this.walk(root, 'light', walk);
    if (mode === 'full') await this.walk(root, 'full', walk);
    return { files: walk.files, skipped: walk.skipped, truncated: walk.truncated };
  }

  /** `.git` and the HEAD it leads to are read only where their real paths stay in `folder.within`. */
  async gitHead(folder: HostFolder): Promise<string | undefined> {
    const inReach = async (path: string) => {
      const real = await realpath(path).catch(() => undefined);
      return real !== undefined && (folder.within === undefined || isWithin(real, folder.within));
    };
    const dotGit = join(folder.path, '.git');
    if (!(await inReach(dotGit))) return undefined;
    const gitDir = await readText(dotGit)
      .then((text) => text?.match(/^gitdir:\s*(.+)$/m)?.[1]?.trim())
      .catch(() => undefined);
    const headFile = join(gitDir ? resolve(folder.path, gitDir) : dotGit, 'HEAD');
    if (!(await inReach(headFile))) return undefined;
    const head = await readText(headFile).catch(() => undefined);
    return head?.match(/^ref:\s*refs\/heads\/(.+)$/m)?.[1]?.trim();
  }

  /** Breadth-first from the root; `light` reads the root and src/ only, and only LIGHT_NAMES. */
  private async walk(root: string, mode: FolderScanMode, walk: Walk): Promise<void> {
    const folders: { relative: string; inherited: Rules }[] = [{ relative: '', inherited: [] }];
    for (let next = folders.shift(); next && !walk.truncated; next = folders.shift()) {
      const { relative, inherited } = next;
      const folder = join(root, relative);
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => [] as Dirent[]);
      const own = entries.some((e) => e.name === '.gitignore' && e.isFile())
        ? [{ base: relative, rules: parseGitignore((await readText(join(folder, '.gitignore'))) ?? '') }]
        : [];
      const rules = [...inherited, ...own];
      const sorted = [...entries].sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of sorted) {
        if (walk.truncated) return;
        const path = relative ? posix.join(relative, entry.name) : entry.name;
        const isDirectory = entry.isDirectory();
        const ignored =
          entry.name.startsWith('.') ||
          ALWAYS_SKIPPED.has(entry.name) ||
          entry.isSymbolicLink() ||
          rules.some(({ base, rules: r }) =>
            isIgnored(r, base ? posix.relative(base, path) : path, isDirectory),
          );
        if (ignored) continue;
        if (isDirectory) {
          if (mode === 'full' || (relative === '' && entry.name === 'src')) {
            folders.push({ relative: path, inherited: rules });
          }
          continue;
        }
        if (!entry.isFile() || (mode === 'light' && !LIGHT_NAMES.test(entry.name))) continue;
        if (walk.seen.has(path)) continue;
        walk.seen.add(path);
        await this.take(join(root, path), path, walk);
      }
    }
  }

  private async take(absolute: string, path: string, walk: Walk): Promise<void> {
    const info = await lstat(absolute).catch(() => undefined);
    // Checked again at read time: an entry replaced by a symbolic link since readdir is not followed.
    if (!info?.isFile() || info.size > FOLDER_SCAN_LIMITS.fileBytes) {
      walk.skipped += 1;
      return;
    }
    if (walk.files.length >= walk.limit || walk.bytes + info.size > FOLDER_SCAN_LIMITS.totalBytes) {
      walk.truncated = true;
      return;
    }
    const content = await readText(absolute).catch(() => undefined);
    if (content === undefined || content.includes('\u0000')) {
      walk.skipped += 1;
      return;
    }
    walk.files.push({ path, content });
    walk.bytes += info.size;
  }
}

/** The located (real) folder, if it is a directory that looks like a project root. */
async function projectRoot(root: string): Promise<string | undefined> {
  const info = await lstat(root).catch(() => undefined);
  if (!info?.isDirectory()) return undefined;
  const names = new Set(await readdir(root).catch(() => [] as string[]));
  return PROJECT_MARKERS.some((marker) => names.has(marker)) ? root : undefined;
}

/** A file as UTF-8 text; undefined when it is missing or not UTF-8. */
async function readText(path: string): Promise<string | undefined> {
  const bytes = await readFile(path).catch(() => undefined);
  if (!bytes) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
