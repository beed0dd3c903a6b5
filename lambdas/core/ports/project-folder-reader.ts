/**
 * Reading an agent's project folder, which only the embedded runtime can do (it runs on the
 * agent's machine). The AWS runtime has no implementation: a deployed server cannot see a
 * laptop's disk, so initialize_context then stores only the files the agent sends and says so.
 */
export interface ProjectFolderReader {
  /**
   * The text files of the folder the scan mode selects (`light`: README, entry points, config
   * files; `full`: every text file), honouring `.gitignore` and size limits. Undefined when the
   * path is not a readable project folder on this machine.
   */
  scan(projectPath: string, mode: FolderScanMode): Promise<FolderScan | undefined>;
  /** The branch `.git/HEAD` names; undefined when there is none (no repository, detached HEAD). */
  gitHead(projectPath: string): Promise<string | undefined>;
}

export type FolderScanMode = 'light' | 'full';

export interface FolderScan {
  /** Paths relative to the folder, `/`-separated. */
  files: { path: string; content: string }[];
  /** Files left out: ignored, binary, or over a size limit. */
  skipped: number;
  /** True when the file-count or total-size limit stopped the scan early. */
  truncated: boolean;
}
