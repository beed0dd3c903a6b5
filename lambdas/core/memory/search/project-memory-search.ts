import type { Principal } from '../../access/rights.js';
import type { BranchSelector, MemoryService } from '../memory-service.js';
import type { MemoryCategory } from '../store/categories.js';
import type { MemorySearch, MemorySearchAnswer } from './memory-search.js';

/** What search needs of project memory: the grant check, branch naming, and the branch read. */
export type SearchAccess = Pick<MemoryService, 'authorize' | 'resolveBranch'> & {
  readonly memory: Pick<MemoryService['memory'], 'requireBranch'>;
};

export interface ProjectSearchInput extends BranchSelector {
  project_id: string;
  query: string;
  top_k: number;
  min_score: number;
  category?: MemoryCategory | undefined;
}

export interface ProjectSearchAnswer extends MemorySearchAnswer {
  /** The branch searched, when one was named (by id or by a linked git branch). */
  branch_id?: string;
}

/**
 * search_context for one principal at a time, like the other memory services: read on the project
 * is checked before anything else, so a caller without it learns nothing of the project (not even
 * which branches or git links exist). The index ({@link MemorySearch}) knows nothing of grants.
 */
export class ProjectMemorySearch {
  constructor(
    private readonly access: SearchAccess,
    /** The index itself, unchecked: for composition and tests, never for a tool. */
    readonly index: MemorySearch,
  ) {}

  /**
   * @example
   * const answer = await search.search(principal, { project_id: 'p1', query: 'redis eviction', top_k: 10, min_score: 0.3 });
   */
  async search(principal: Principal, input: ProjectSearchInput): Promise<ProjectSearchAnswer> {
    await this.access.authorize(principal, input.project_id, 'read');
    // No branch named: the whole project (unlike get_active_summary, search does not default to HEAD).
    const named = input.branch_id !== undefined || input.git_branch !== undefined;
    const branchId = named
      ? (await this.access.resolveBranch(principal, input.project_id, input)).branch_id
      : undefined;
    if (branchId !== undefined) await this.access.memory.requireBranch(input.project_id, branchId);
    const answer = await this.index.search(input.project_id, input.query, {
      top_k: input.top_k,
      min_score: input.min_score,
      ...(branchId === undefined ? {} : { branch_id: branchId }),
      ...(input.category === undefined ? {} : { category: input.category }),
    });
    return branchId === undefined ? answer : { ...answer, branch_id: branchId };
  }
}
