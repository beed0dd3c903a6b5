import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import type { TestRuntime } from '../support/test-runtime.js';

/**
 * Valid calls of the insight tools (grounding, suggestions, graph) for the fuzz test, on the
 * run's memory project and branch: an entry to find, and two open suggestion sessions (one to
 * accept, one to reject, since feedback is given once).
 */
export async function insightSeedCalls(
  runtime: TestRuntime,
  project_id: string,
  branch_id: string,
): Promise<Record<string, object>> {
  await runtime.memory.updateMemory(LOCAL_OWNER, project_id, {
    branch_id,
    role: 'assistant',
    content: 'The HTTP timeout is 30 seconds; retryWithBackoff() in src/retry.ts retries 3 times.',
  });
  const suggest = () =>
    runtime.insights.suggestContexts(LOCAL_OWNER, {
      project_id,
      current_context: 'HTTP timeout retries',
      top_k: 5,
    });
  const toAccept = await suggest();
  const toReject = await suggest();
  return {
    verify_response: { project_id, response_text: 'The HTTP timeout is 30 seconds.' },
    suggest_contexts: { project_id, current_context: 'HTTP timeout' },
    accept_suggestions: {
      project_id,
      session_id: toAccept.session_id,
      context_ids: [toAccept.suggestions[0]!.context_id],
    },
    reject_suggestions: { project_id, session_id: toReject.session_id, reason: 'Not this phase' },
    get_automation_status: { project_id },
    get_context_graph_info: { project_id, limit: 10 },
  };
}
