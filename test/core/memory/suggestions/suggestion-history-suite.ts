import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDomainError } from '../../../../lambdas/core/errors.js';
import { SuggestionHistory } from '../../../../lambdas/core/memory/suggestions/suggestion-history.js';
import { fixedClock } from '../../../../lambdas/core/ports/index.js';
import { nodeRandom } from '../../../../lambdas/runtime/node-random.js';
import { startTestRuntime, type TestRuntime } from '../../../support/test-runtime.js';

/**
 * Suggestion sessions against one engine: dynalite and DynamoDB Local run the same cases, so the
 * once-only feedback (a conditional put on `state = open`) holds on the real AWS engine too.
 */
export function describeSuggestionHistory(engine: string, endpoint?: () => string): void {
  describe(`SuggestionHistory on ${engine}`, () => {
    let runtime: TestRuntime;
    let history: SuggestionHistory;

    beforeAll(async () => {
      runtime = await startTestRuntime(endpoint ? { endpoint: endpoint() } : {});
      history = new SuggestionHistory({
        store: runtime.store,
        clock: fixedClock('2026-11-23T09:00:00Z'),
        random: nodeRandom,
      });
    });

    afterAll(async () => {
      await runtime.close();
    });

    const suggestion = {
      context_id: 'ent_1',
      branch_id: 'br_1',
      source: 'similarity' as const,
      confidence: 0.5,
    };

    it('records exactly one of ten concurrent answers to one session', async () => {
      const session = await history.open('prj_race', 'redis cache', [suggestion]);

      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          history.decide(
            session,
            i % 2 === 0
              ? { state: 'accepted', accepted_ids: ['ent_1'] }
              : { state: 'rejected', reason: `no ${i}` },
          ),
        ),
      );

      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won).toHaveLength(1);
      expect(
        outcomes.filter((o) => o.status === 'rejected' && isDomainError(o.reason, 'CONFLICT')),
      ).toHaveLength(9);
      const stored = await history.require('prj_race', session.session_id);
      expect(stored.state).toBe((won[0] as PromiseFulfilledResult<{ state: string }>).value.state);
    });

    it('keeps each project’s sessions apart, newest first', async () => {
      const first = await history.open('prj_a', 'first task', [suggestion]);
      const second = await history.open('prj_a', 'second task', []);
      await history.open('prj_b', 'elsewhere', []);

      const sessions = await history.recent('prj_a');

      expect(
        sessions
          .map((s) => s.session_id)
          .sort()
          .reverse(),
      ).toEqual(sessions.map((s) => s.session_id));
      expect(sessions.map((s) => s.session_id).sort()).toEqual([first.session_id, second.session_id].sort());
      await expect(history.require('prj_b', first.session_id)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        details: { field: 'session_id' },
      });
    });
  });
}
