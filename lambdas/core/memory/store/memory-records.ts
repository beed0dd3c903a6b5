import { DomainError } from '../../errors.js';

/**
 * The seam between a project's memory store and what reads it whole: search, grounding,
 * suggestions, the context graph and snapshots. The store (memory-store.ts) implements both
 * interfaces; the readers depend on these shapes only, so each can be built and tested alone.
 */

/** One piece of a project's memory as search and grounding see it: text with where it came from. */
export interface MemoryItem {
  /** Stable id, unique within the project (an entry id, or `file:<path>` for an initialised file). */
  item_id: string;
  project_id: string;
  branch_id: string;
  /** `entry`: written by update_memory; `file`: from initialize_context; `summary`: a context's summary. */
  kind: 'entry' | 'file' | 'summary';
  /** Already redacted of secrets. */
  text: string;
  /** The file's path inside the project, for `kind: 'file'`. */
  path?: string;
  /** Ontology category (development, bug_fix, feature, decision, …), assigned deterministically. */
  category?: string;
  /** The firewall rules the text trips, flagged when it was written; absent when none. */
  untrusted?: string[];
  /** ISO 8601 UTC. */
  created_at: string;
}

/** Read access to a project's memory as a whole. */
export interface MemoryReader {
  /** Every item of the project, or of one branch, oldest first. */
  items(projectId: string, options?: { branch_id?: string }): Promise<MemoryItem[]>;
  /**
   * Changes whenever anything in the project's memory changes (an opaque token). An index or
   * cache keyed by it is stale when the token differs.
   */
  revision(projectId: string): Promise<string>;
}

/** One stored record of a project's memory, opaque to snapshots: its key and its JSON body. */
export interface MemoryRecord {
  key: string;
  body: unknown;
}

/**
 * A project's whole memory state, exported and replaced at once. Replacement is two-phase so a
 * crash leaves the old state or the new one, never a mix: records are staged as a new generation
 * that nothing reads, then one conditional write makes it current.
 */
/** A project's whole state as exported, and where it was taken from. */
export interface ExportedState {
  generation: string;
  /** The generation's revision when the export began: any later write changes it. */
  revision: string;
  records: MemoryRecord[];
}

/** What a generation switch requires of the current state. */
export interface ExpectedState {
  generation: string;
  /** Also require this revision: no write since the state was exported. @default - any revision */
  revision?: string | undefined;
}

export interface MemoryStateStore {
  /** The current generation and every record in it. */
  exportState(projectId: string): Promise<ExportedState>;
  /** The current generation and revision alone (one read): what a write to the memory moves. */
  currentState(projectId: string): Promise<Required<ExpectedState>>;
  /**
   * Writes `records` as a new generation, not yet current; answers its id. Whichever of it and
   * the generation current now is not current later is the store's to delete (a sweep), not the
   * caller's.
   */
  stageGeneration(projectId: string, records: readonly MemoryRecord[]): Promise<string>;
  /**
   * Makes `generation` current if the current state is still `expected`; CONFLICT otherwise
   * (MemoryChangedError when only the revision moved). The only write a reader can observe.
   * Answers the revision it set: a later revision means someone wrote to the new state since.
   */
  activateGeneration(projectId: string, generation: string, expected: ExpectedState): Promise<string>;
  /** Deletes a generation that is not current (a failed restore's leftovers, an old state). */
  discardGeneration(projectId: string, generation: string): Promise<void>;
}

/**
 * CONFLICT: the memory is still at the expected generation but was written to since it was
 * exported (its revision moved), so switching away from it would drop that write. A restore
 * takes its backup again and retries (restore-snapshot.ts).
 */
export class MemoryChangedError extends DomainError {
  constructor(projectId: string) {
    super(
      'CONFLICT',
      `The memory of project "${projectId}" was written to while it was being restored, so nothing was restored ` +
        '(the write is kept). Retry the restore.',
      { project_id: projectId },
    );
  }
}
