import * as z from 'zod';
import { DomainError } from '../../errors.js';
import {
  type Clock,
  ConditionFailedError,
  type DocumentStore,
  type RandomSource,
} from '../../ports/index.js';
import { PK_PREFIX, SK } from '../../storage/key-prefixes.js';

export const SuggestionSource = z.enum(['reference_history', 'similarity']);
export type SuggestionSource = z.infer<typeof SuggestionSource>;

/** One context suggested in a session. */
export const Suggestion = z.object({
  context_id: z.string(),
  branch_id: z.string(),
  source: SuggestionSource,
  confidence: z.number(),
});
export type Suggestion = z.infer<typeof Suggestion>;

/** One suggest_contexts answer and the feedback on it (docs/data-model.md). */
export const SuggestionSession = z.object({
  session_id: z.string(),
  project_id: z.string(),
  current_context: z.string(),
  suggestions: z.array(Suggestion),
  state: z.enum(['open', 'accepted', 'rejected']),
  accepted_ids: z.array(z.string()).optional(),
  reason: z.string().optional(),
  created_at: z.string(),
  decided_at: z.string().optional(),
});
export type SuggestionSession = z.infer<typeof SuggestionSession>;

export type SessionOutcome =
  | { state: 'accepted'; accepted_ids: string[] }
  | { state: 'rejected'; reason: string };

/** How many past sessions reference history and the automation counts read. */
export const HISTORY_WINDOW = 1000;

const partition = (projectId: string) => `${PK_PREFIX.memorySuggestions}${projectId}`;
const sessionKey = (projectId: string, sessionId: string) => ({
  pk: partition(projectId),
  sk: `${SK.memorySuggestions.sessionPrefix}${sessionId}`,
});

/**
 * Suggestion sessions in the table: opened by suggest_contexts, decided once by
 * accept_suggestions or reject_suggestions (a conditional write on `state = open`).
 */
export class SuggestionHistory {
  constructor(private readonly deps: { store: DocumentStore; clock: Clock; random: RandomSource }) {}

  async open(
    projectId: string,
    currentContext: string,
    suggestions: Suggestion[],
  ): Promise<SuggestionSession> {
    const now = this.deps.clock.now();
    const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
    const session = SuggestionSession.parse({
      session_id: `sug_${stamp}_${this.deps.random.uuid().replace(/-/g, '').slice(0, 8)}`,
      project_id: projectId,
      current_context: currentContext,
      suggestions,
      state: 'open',
      created_at: now.toISOString(),
    });
    await this.deps.store.put(
      { ...sessionKey(projectId, session.session_id), ...session },
      { condition: { op: 'not_exists' } },
    );
    return session;
  }

  /** The session, or INVALID_INPUT naming `session_id` and where ids come from. */
  async require(projectId: string, sessionId: string): Promise<SuggestionSession> {
    const raw = await this.deps.store.get(sessionKey(projectId, sessionId), { consistent: true });
    if (raw) return SuggestionSession.parse(raw);
    throw new DomainError(
      'INVALID_INPUT',
      `No suggestion session "${sessionId}" in project "${projectId}": pass the session_id suggest_contexts answered for this project.`,
      {
        field: 'session_id',
        expected: 'a session_id from suggest_contexts',
        example: 'sug_20260102123456_1a2b3c4d',
      },
    );
  }

  /** Records the feedback; CONFLICT when the session was already decided. */
  async decide(session: SuggestionSession, outcome: SessionOutcome): Promise<SuggestionSession> {
    const decided = SuggestionSession.parse({
      ...session,
      ...outcome,
      decided_at: this.deps.clock.now().toISOString(),
    });
    try {
      await this.deps.store.put(
        { ...sessionKey(session.project_id, session.session_id), ...decided },
        { condition: { op: 'eq', attribute: 'state', value: 'open' } },
      );
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      throw new DomainError(
        'CONFLICT',
        `Suggestion session "${session.session_id}" already has its feedback. Call suggest_contexts for a new session.`,
        { session_id: session.session_id },
      );
    }
    return decided;
  }

  /** The newest sessions of the project (up to {@link HISTORY_WINDOW}), newest first. */
  async recent(projectId: string): Promise<SuggestionSession[]> {
    const sessions: SuggestionSession[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.deps.store.query({
        partition: partition(projectId),
        beginsWith: SK.memorySuggestions.sessionPrefix,
        descending: true,
        limit: HISTORY_WINDOW - sessions.length,
        ...(cursor ? { cursor } : {}),
      });
      sessions.push(...page.items.map((raw) => SuggestionSession.parse(raw)));
      cursor = page.cursor;
    } while (cursor && sessions.length < HISTORY_WINDOW);
    return sessions;
  }
}
