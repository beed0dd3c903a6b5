/**
 * Reading project folders on the server's own machine, which only the embedded runtime can do.
 * The AWS runtime has no implementation: a deployed server cannot see a laptop's disk, so
 * initialize_context then stores only the files the agent sends and says so.
 *
 * A path is first located for a caller's {@link FolderReach}; only a {@link HostFolder} that
 * `locate` answered is ever scanned or read for `.git/HEAD`.
 */
export interface ProjectFolderReader {
  /**
   * Where `projectPath` is on this machine for a caller with `reach`. Resolves every component
   * (symbolic links included) and, for `listed`, answers `escapes` when the real folder is not
   * inside the listed folder the path names.
   */
  locate(projectPath: string, reach: FolderReach): Promise<FolderLocation>;
  /**
   * The text files of the folder the scan mode selects (`light`: README, entry points, config
   * files; `full`: every text file), honouring `.gitignore` and size limits, never following a
   * symbolic link. Undefined when the folder does not look like a project root or is unreadable.
   */
  scan(folder: HostFolder, mode: FolderScanMode): Promise<FolderScan | undefined>;
  /**
   * The branch `.git/HEAD` names; undefined when there is none (no repository, detached HEAD) or
   * when the git dir lies outside the listed folder the folder was located in.
   */
  gitHead(folder: HostFolder): Promise<string | undefined>;
}

/**
 * How far a caller's path reaches on this machine: `anywhere` for its owner, `listed` (only
 * inside the folders the administrator configured) for everyone else.
 */
export type FolderReach = 'anywhere' | 'listed';

/** A real folder on this machine, located for one caller. */
export interface HostFolder {
  /** The real path: every symbolic link resolved. */
  readonly path: string;
  /** The real path of the listed folder it lies in; undefined when located for the owner. */
  readonly within?: string | undefined;
}

export type FolderLocation =
  | { status: 'found'; folder: HostFolder }
  /** Not in the caller's reach: the path is then only a name, and nothing about it is looked up. */
  | { status: 'outside' }
  /** Inside a listed folder as written, but a symbolic link leads out of it. */
  | { status: 'escapes' }
  /** In reach, but no folder is there (or it cannot be read). */
  | { status: 'missing' };

export type FolderScanMode = 'light' | 'full';

export interface FolderScan {
  /** Paths relative to the folder, `/`-separated. */
  files: { path: string; content: string }[];
  /** Files left out: ignored, binary, or over a size limit. */
  skipped: number;
  /** True when the file-count or total-size limit stopped the scan early. */
  truncated: boolean;
}
