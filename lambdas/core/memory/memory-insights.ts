import type { Principal, Right } from '../access/rights.js';
import type { CallWork } from '../call-work.js';
import { DomainError } from '../errors.js';
import { echo } from '../input-limits.js';
import { buildContextGraph, type GraphBranch } from './graph/context-graph.js';
import { type GraphPage, pageOfGraph } from './graph/graph-page.js';
import { type GroundingReport, verifyAgainstMemory } from './grounding/verify-response.js';
import type { MemoryReader } from './store/memory-records.js';
import { redactSecrets } from './store/redact-secrets.js';
import { type AutomationStatus, automationStatus } from './suggestions/automation-status.js';
import { type RankedSuggestion, rankSuggestions } from './suggestions/rank-suggestions.js';
import type { SuggestionHistory } from './suggestions/suggestion-history.js';

/**
 * What insights need of project memory: the grant check and the reader (memcore's
 * MemoryService has this shape), so they depend on the seam, not on how memory is stored.
 */
export interface ProjectMemoryAccess {
  /** FORBIDDEN without the right, PROJECT_NOT_FOUND when there is no such project. */
  authorize(principal: Principal, projectId: string, right: Right): Promise<void>;
  readonly memory: MemoryReader & { listBranches(projectId: string): Promise<GraphBranch[]> };
}

export interface SuggestedContext extends RankedSuggestion {
  branch_topic: string;
  /** The context's first words (or its path), to tell suggestions apart. */
  label: string;
}

const LABEL_CHARS = 80;

/**
 * Grounding, suggestions, automation status and the context graph of one project, for one
 * principal at a time: reading needs read on the project, giving feedback needs write.
 */
export class MemoryInsights {
  constructor(private readonly deps: { access: ProjectMemoryAccess; history: SuggestionHistory }) {}

  async verifyResponse(
    principal: Principal,
    input: { project_id: string; response_text: string; evidence_sources?: readonly string[] | undefined },
    /** The call's allowance: the pool read and each claim's search spend it. */
    work?: CallWork,
  ): Promise<GroundingReport> {
    await this.deps.access.authorize(principal, input.project_id, 'read');
    const items = await this.deps.access.memory.items(input.project_id);
    return verifyAgainstMemory(items, input.response_text, { evidenceSources: input.evidence_sources, work });
  }

  /**
   * The grounding of an entry just written, against the rest of the project's memory (the entry
   * itself excluded, or every claim would support itself).
   */
  async groundingOfEntry(
    principal: Principal,
    projectId: string,
    entry: { entry_id: string; content: string },
  ): Promise<GroundingReport> {
    await this.deps.access.authorize(principal, projectId, 'read');
    const items = await this.deps.access.memory.items(projectId);
    return verifyAgainstMemory(
      items.filter((item) => item.item_id !== entry.entry_id),
      entry.content,
    );
  }

  async suggestContexts(
    principal: Principal,
    input: { project_id: string; current_context: string; top_k: number },
  ): Promise<{ session_id: string; suggestions: SuggestedContext[] }> {
    await this.deps.access.authorize(principal, input.project_id, 'read');
    const { memory } = this.deps.access;
    const [items, branches, history] = await Promise.all([
      memory.items(input.project_id),
      memory.listBranches(input.project_id),
      this.deps.history.recent(input.project_id),
    ]);
    const task = redactSecrets(input.current_context).text;
    const ranked = rankSuggestions(items, history, task, input.top_k);
    const session = await this.deps.history.open(
      input.project_id,
      task,
      ranked.map(({ context_id, branch_id, source, confidence }) => ({
        context_id,
        branch_id,
        source,
        confidence,
      })),
    );
    const topics = new Map(branches.map((b) => [b.branch_id, b.topic]));
    const texts = new Map(items.map((item) => [item.item_id, item.path ?? item.text]));
    return {
      session_id: session.session_id,
      suggestions: ranked.map((s) => ({
        ...s,
        branch_topic: topics.get(s.branch_id) ?? '',
        label: labelOf(texts.get(s.context_id) ?? ''),
      })),
    };
  }

  /** Records which suggested contexts were used: the co-references later suggestions draw on. */
  async acceptSuggestions(
    principal: Principal,
    input: { project_id: string; session_id: string; context_ids: readonly string[] },
  ): Promise<{ accepted_count: number }> {
    await this.deps.access.authorize(principal, input.project_id, 'write');
    const session = await this.deps.history.require(input.project_id, input.session_id);
    const suggested = session.suggestions.map((s) => s.context_id);
    const unknown = input.context_ids.filter((id) => !suggested.includes(id));
    if (unknown.length > 0) {
      throw new DomainError(
        'INVALID_INPUT',
        `context_ids ${unknown.map(echo).join(', ')} were not suggested in session "${session.session_id}"; accept only ids from its suggestions${suggested.length > 0 ? ` (${suggested.slice(0, 10).join(', ')})` : ' (it had none: call reject_suggestions)'}.`,
        {
          field: 'context_ids',
          expected: 'context ids from the session’s suggestions',
          example: suggested[0] ?? 'ent_…',
        },
      );
    }
    const ids = [...new Set(input.context_ids)];
    await this.deps.history.decide(session, { state: 'accepted', accepted_ids: ids });
    return { accepted_count: ids.length };
  }

  async rejectSuggestions(
    principal: Principal,
    input: { project_id: string; session_id: string; reason: string },
  ): Promise<void> {
    await this.deps.access.authorize(principal, input.project_id, 'write');
    const session = await this.deps.history.require(input.project_id, input.session_id);
    await this.deps.history.decide(session, { state: 'rejected', reason: redactSecrets(input.reason).text });
  }

  async automationStatus(principal: Principal, projectId: string): Promise<AutomationStatus> {
    await this.deps.access.authorize(principal, projectId, 'read');
    return automationStatus(await this.deps.history.recent(projectId));
  }

  async contextGraph(
    principal: Principal,
    input: {
      project_id: string;
      branch_id?: string | undefined;
      limit?: number | undefined;
      cursor?: string | undefined;
    },
  ): Promise<GraphPage> {
    await this.deps.access.authorize(principal, input.project_id, 'read');
    const { memory } = this.deps.access;
    const [revision, items, branches, sessions] = await Promise.all([
      memory.revision(input.project_id),
      memory.items(input.project_id),
      memory.listBranches(input.project_id),
      this.deps.history.recent(input.project_id),
    ]);
    if (input.branch_id !== undefined && !branches.some((b) => b.branch_id === input.branch_id)) {
      throw new DomainError(
        'BRANCH_NOT_FOUND',
        `No branch "${input.branch_id}" in project "${input.project_id}". Omit branch_id for the whole project, or call list_branches for the ids.`,
        { field: 'branch_id' },
      );
    }
    const graph = buildContextGraph({ branches, items, sessions, branchId: input.branch_id });
    return pageOfGraph(graph, { limit: input.limit, cursor: input.cursor, revision });
  }
}

function labelOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= LABEL_CHARS ? line : `${line.slice(0, LABEL_CHARS - 1)}…`;
}
