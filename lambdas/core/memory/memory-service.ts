import type { AccessStore } from '../access/access-store.js';
import type { Principal, Right } from '../access/rights.js';
import type { CallWork } from '../call-work.js';
import { DomainError, isDomainError } from '../errors.js';
import { echo, excerpt } from '../input-limits.js';
import { once } from '../once.js';
import type { BlobStore, DocumentStore, ProjectFolderReader } from '../ports/index.js';
import { ProjectAccess, projectResource } from '../rules/project-access.js';
import type { ProjectStore } from '../rules/project-store.js';
import { mostRecentBranch } from './contexts/most-recent-branch.js';
import { locateFolder } from './folders/host-folders.js';
import { folderKey } from './store/memory-keys.js';
import type { Branch, EntryRole } from './store/memory-schemas.js';
import type { MemoryStore } from './store/memory-store.js';

/**
 * Loaded by the first write: the firewall's rules and the secret patterns are most of the memory
 * code a cold start would otherwise load, and no read needs them. Kept once loaded: a warm call
 * should not go back through the module loader.
 */
const writeCode = once(() =>
  Promise.all([import('./store/redact-secrets.js'), import('../firewall/untrusted-text.js')]),
);

/** Loaded by project_summary's decisions: the grounding's claim reading, which no other method needs. */
const decisionCode = once(() => import('./contexts/project-decisions.js'));

export interface MemoryServiceDeps {
  store: DocumentStore;
  memory: MemoryStore;
  projects: ProjectStore;
  access: AccessStore;
  /** The memory's large bodies; also what search indexes and snapshots are kept in. */
  blobs: BlobStore;
  /** Folders on this machine (the embedded runtime), read only as host-folders.ts allows. @default - none */
  folders?: ProjectFolderReader | undefined;
}

/** How a tool named the branch it works on. */
export interface BranchSelector {
  branch_id?: string | undefined;
  git_branch?: string | undefined;
}

/** How a branch was found: named, by git branch, by .git/HEAD, or the one worked on last. */
export interface ResolvedBranch {
  branch_id: string;
  resolved_from: 'branch_id' | 'git_branch' | 'git_head' | 'most_recent';
  git_branch?: string;
  /** With `most_recent`: the git branch .git/HEAD named that no memory branch is linked to. */
  unlinked_git_head?: string;
}

/**
 * Project memory for one principal at a time: every method checks the caller's grant on the
 * project (read to read, write to change) before it touches the memory, and says
 * PROJECT_NOT_FOUND for a project that does not exist. The tools map onto it one to one; the
 * other memory areas (search, grounding, snapshots) reach the memory through `memory` (the
 * MemoryReader / MemoryStateStore seam) after {@link authorize}.
 */
export class MemoryService {
  constructor(readonly deps: MemoryServiceDeps) {}

  get memory(): MemoryStore {
    return this.deps.memory;
  }

  /** FORBIDDEN without the right on the project, PROJECT_NOT_FOUND when there is no such project. */
  async authorize(principal: Principal, projectId: string, right: Right): Promise<void> {
    await this.deps.access.requireRight(principal, projectResource(projectId), right);
    if (!(await this.deps.projects.find(projectId))) throw projectNotFound(projectId);
  }

  /**
   * Starts a branch. Its topic is flagged with the firewall rules it trips, as an entry's content
   * is (kept, not refused): the summary resource and resume-work quote it to the next agent.
   */
  async createBranch(
    principal: Principal,
    projectId: string,
    input: { topic: string; parent_branch_id?: string | undefined },
  ) {
    const [, { untrustedMarks }] = await writeCode();
    await this.authorize(principal, projectId, 'write');
    return this.deps.memory.createBranch(projectId, {
      topic: input.topic,
      untrusted: untrustedMarks(input.topic),
      ...(input.parent_branch_id === undefined ? {} : { parent_branch_id: input.parent_branch_id }),
    });
  }

  async listBranches(principal: Principal, projectId: string) {
    await this.authorize(principal, projectId, 'read');
    return this.deps.memory.listBranches(projectId);
  }

  /**
   * The branches of every project the principal may read, project by project, at most `limit`
   * (what the memory:// resource listing shows). One grant read for all projects, not one each.
   */
  async readableBranches(
    principal: Principal,
    limit: number,
  ): Promise<{ projectId: string; branch: Branch }[]> {
    const [projects, rights] = await Promise.all([
      this.deps.projects.list(),
      new ProjectAccess(this.deps.access).rightsOf(principal),
    ]);
    const found: { projectId: string; branch: Branch }[] = [];
    for (const { project_id: projectId } of projects) {
      if (!rights.allows(projectId, 'read')) continue;
      for (const branch of await this.deps.memory.listBranches(projectId)) {
        if (found.length >= limit) return found;
        found.push({ projectId, branch });
      }
    }
    return found;
  }

  /**
   * Appends (or, with `entry_id`, replaces) an entry, secrets redacted first and flagged with the
   * firewall rules it trips (kept, not refused: notes may discuss injection). The grant check
   * and the branch read run together; nothing is written before the grant is confirmed.
   */
  async updateMemory(
    principal: Principal,
    projectId: string,
    input: {
      branch_id: string;
      role: EntryRole;
      content: string;
      entry_id?: string | undefined;
      if_version?: number | undefined;
    },
  ) {
    const [{ redactSecrets }, { untrustedMarks }] = await writeCode();
    const redaction = redactSecrets(input.content);
    const redacted = redaction.redactions.reduce((sum, r) => sum + r.count, 0);
    const written = { role: input.role, content: redaction.text, untrusted: untrustedMarks(redaction.text) };
    if (input.entry_id !== undefined) {
      await this.authorize(principal, projectId, 'write');
      const entry = await this.deps.memory.replaceEntry(
        projectId,
        input.branch_id,
        input.entry_id,
        written,
        input.if_version,
      );
      return { entry, redacted };
    }
    const entry = await this.orProjectNotFound(projectId, () =>
      this.deps.memory.appendEntry(
        projectId,
        input.branch_id,
        written,
        this.deps.access.requireRight(principal, projectResource(projectId), 'write'),
      ),
    );
    return { entry, redacted };
  }

  /**
   * The branch a tool means: `branch_id`, else the one linked to `git_branch`, else (where the
   * project folder is readable) the one linked to the branch `.git/HEAD` names. With
   * `mostRecent`, a selector naming nothing that finds no linked git branch falls back to the
   * branch worked on last (get_active_summary: "where did I leave off").
   */
  async resolveBranch(
    principal: Principal,
    projectId: string,
    selector: BranchSelector,
    options: { mostRecent?: boolean } = {},
  ): Promise<ResolvedBranch> {
    if (selector.branch_id !== undefined)
      return { branch_id: selector.branch_id, resolved_from: 'branch_id' };
    const head = selector.git_branch === undefined ? await this.gitHead(principal, projectId) : undefined;
    const gitBranch = selector.git_branch ?? head;
    const branchId =
      gitBranch === undefined ? undefined : await this.deps.memory.branchForGit(projectId, gitBranch);
    if (branchId === undefined && selector.git_branch === undefined && options.mostRecent) {
      const latest = mostRecentBranch(
        await this.deps.memory.listBranches(projectId),
        await this.deps.memory.items(projectId),
      );
      if (!latest) {
        throw new DomainError(
          'BRANCH_NOT_FOUND',
          'This project has no memory branch yet: create one with create_branch.',
          { field: 'branch_id' },
        );
      }
      return {
        branch_id: latest.branch_id,
        resolved_from: 'most_recent',
        ...(head === undefined ? {} : { unlinked_git_head: head }),
      };
    }
    if (gitBranch === undefined) {
      throw new DomainError(
        'INVALID_INPUT',
        'Pass branch_id (from list_branches) or git_branch (a git branch linked with link_git_branch), e.g. "feature/auth".',
        { field: 'branch_id', expected: 'a branch id or git_branch', example: 'feature/auth' },
      );
    }
    if (branchId === undefined) {
      throw new DomainError(
        'BRANCH_NOT_FOUND',
        `No memory branch is linked to git branch ${echo(gitBranch)}${head ? ' (read from .git/HEAD)' : ''}. ` +
          'Link one with link_git_branch, or pass branch_id.',
        {
          field: selector.git_branch === undefined ? 'branch_id' : 'git_branch',
          git_branch: excerpt(gitBranch),
        },
      );
    }
    return {
      branch_id: branchId,
      resolved_from: selector.git_branch === undefined ? 'git_head' : 'git_branch',
      git_branch: gitBranch,
    };
  }

  /** The branch a branch view is about, compressed first if it went idle. */
  async activeBranch(
    principal: Principal,
    projectId: string,
    selector: BranchSelector,
    options: { mostRecent?: boolean } = {},
  ) {
    await this.authorize(principal, projectId, 'read');
    const resolved = await this.resolveBranch(principal, projectId, selector, options);
    // Housekeeping on read: an idle context is compressed the first time anyone looks at it.
    await this.deps.memory.compressIfIdle(projectId, resolved.branch_id);
    return { resolved, view: await this.deps.memory.branchView(projectId, resolved.branch_id) };
  }

  /**
   * What the project's memory says was decided, across every branch (project-decisions.ts). It
   * reads every entry, so it spends one item of the call's work per item read.
   */
  async projectDecisions(principal: Principal, projectId: string, work?: CallWork) {
    await this.authorize(principal, projectId, 'read');
    const items = await this.deps.memory.items(projectId);
    work?.spend(
      items.length,
      'Leave out project_summary, or call search_context with a query to read a part of the memory.',
    );
    const { projectDecisions } = await decisionCode();
    return projectDecisions(items);
  }

  /**
   * A branch's whole context, decompressed and made active again if it was compressed. Read is
   * enough: restoring changes how the context is kept, not what it says (like compression).
   */
  async loadContext(principal: Principal, projectId: string, branchId: string) {
    await this.authorize(principal, projectId, 'read');
    const restored = await this.deps.memory.restoreContext(projectId, branchId);
    return { restored, view: await this.deps.memory.branchView(projectId, branchId) };
  }

  async linkGitBranch(principal: Principal, projectId: string, branchId: string, gitBranch: string) {
    await this.authorize(principal, projectId, 'write');
    const branch = await this.deps.memory.linkGitBranch(projectId, branchId, gitBranch);
    return { branch, current_git_branch: await this.gitHead(principal, projectId) };
  }

  /**
   * The branch `.git/HEAD` names in the project's folder, where the caller may read that folder
   * on this machine (the rule of host-folders.ts, checked again on every read).
   */
  async gitHead(principal: Principal, projectId: string): Promise<string | undefined> {
    const { folders } = this.deps;
    if (!folders) return undefined;
    const raw = await this.deps.store.get(folderKey(projectId), { consistent: true });
    const path = typeof raw?.project_path === 'string' ? raw.project_path : undefined;
    if (path === undefined) return undefined;
    const location = await locateFolder(folders, principal, path);
    return location.status === 'found' ? folders.gitHead(location.folder) : undefined;
  }

  /** Turns BRANCH_NOT_FOUND into PROJECT_NOT_FOUND when the project itself is missing. */
  private async orProjectNotFound<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isDomainError(error, 'BRANCH_NOT_FOUND') && !(await this.deps.projects.find(projectId))) {
        throw projectNotFound(projectId);
      }
      throw error;
    }
  }
}

export function projectNotFound(projectId: string): DomainError {
  return new DomainError(
    'PROJECT_NOT_FOUND',
    `No project "${projectId}". Call initialize_context with the project's folder to get its project_id.`,
    { field: 'project_id', project_id: projectId },
  );
}
