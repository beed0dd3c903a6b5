import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { initializeContext } from '../../lambdas/core/memory/initialize-context.js';
import type { TestRuntime } from '../support/test-runtime.js';

/**
 * Valid calls of the memory tools for the fuzz test, on a project made here: a branch with one
 * entry and one file, and two open suggestion sessions (one to accept, one to reject, since
 * feedback is given once).
 */
export async function memorySeedCalls(runtime: TestRuntime): Promise<Record<string, object>> {
  const { project } = await initializeContext(runtime.memory.deps, LOCAL_OWNER, {
    project_path: '/fuzz/project',
    mode: 'none',
    files: [{ path: 'src/config.ts', content: 'The HTTP timeout is 30 seconds.' }],
  });
  const project_id = project.project_id;
  const branch = await runtime.memory.createBranch(LOCAL_OWNER, project_id, { topic: 'Fuzz' });
  const branch_id = branch.branch_id;
  await runtime.memory.updateMemory(LOCAL_OWNER, project_id, {
    branch_id,
    role: 'assistant',
    content: 'Retries use retryWithBackoff() in src/retry.ts, 3 times.',
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
    initialize_context: {
      project_path: '/fuzz/other',
      mode: 'none',
      files: [{ path: 'README.md', content: 'Hi' }],
    },
    create_branch: { project_id, branch_topic: 'Fuzzed topic' },
    list_branches: { project_id, format: 'json' },
    update_memory: { project_id, branch_id, content: 'The HTTP timeout is 30 seconds.', role: 'assistant' },
    get_active_summary: { project_id, branch_id },
    load_context: { project_id, branch_id },
    link_git_branch: { project_id, cortex_branch_id: branch_id, git_branch_name: 'feature/fuzz' },
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
