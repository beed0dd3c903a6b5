import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, errorOf, okTool, type ToolOutput as Structured } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/**
 * verify_response, suggest_contexts, accept/reject_suggestions, get_automation_status and
 * get_context_graph_info over HTTP with the SDK's real Client, on dynalite, with project grants.
 */
describe('memory insight tools over HTTP', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  const clients: Record<'owner' | 'reader' | 'stranger', Client> = {} as never;
  let projectId: string;
  let mainBranch: string;
  let childBranch: string;
  let readerKeyId: string;

  const call = (who: keyof typeof clients, name: string, args: Record<string, unknown>) =>
    callTool(clients[who], name, args);
  const ok = (who: keyof typeof clients, name: string, args: Record<string, unknown>) =>
    okTool(clients[who], name, args);

  beforeAll(async () => {
    runtime = await startTestRuntime();
    served = await serveRuntime(runtime);
    for (const who of ['owner', 'reader', 'stranger'] as const) {
      const key = await served.connect(who);
      clients[who] = key.client;
      if (who === 'reader') readerKeyId = key.keyId;
    }
    const init = await ok('owner', 'initialize_context', {
      project_path: '/srv/harbor',
      mode: 'none',
      files: [
        {
          path: 'src/config/settings.ts',
          content: 'The database pool allows 20 connections. The HTTP request timeout is 30 seconds.',
        },
      ],
    });
    projectId = init.project_id;
    mainBranch = (await ok('owner', 'create_branch', { project_id: projectId, branch_topic: 'Caching' }))
      .branch_id;
    childBranch = (
      await ok('owner', 'create_branch', {
        project_id: projectId,
        branch_topic: 'Redis TTLs',
        parent_branch: mainBranch,
      })
    ).branch_id;
    for (const content of [
      'Server-side caching uses Redis with a TTL of 300 seconds for carrier status lookups.',
      'The retry helper retryWithBackoff() in src/retry.ts retries a failed job 3 times.',
      'Carrier webhooks are verified in src/webhooks/carrier.ts before retryWithBackoff() runs.',
    ]) {
      await ok('owner', 'update_memory', {
        project_id: projectId,
        branch_id: childBranch,
        content,
        role: 'assistant',
      });
    }
    await runtime.access.setGrant(readerKeyId, { kind: 'project', id: projectId }, 'read');
  });

  afterAll(() => served?.close());

  describe('verify_response', () => {
    it('accepts claims that memory and initialised files state, naming the evidence', async () => {
      const report = await ok('reader', 'verify_response', {
        project_id: projectId,
        response_text:
          'The database pool allows 20 connections. Carrier status lookups are cached in Redis for 300 seconds.',
      });

      expect(report).toMatchObject({
        status: 'ACCEPT',
        risk_level: 'low',
        claims_extracted: 2,
        claims_verified: 2,
      });
      expect(report.grounding_score).toBeGreaterThanOrEqual(0.7);
      expect(report.evidence_items[0]).toMatchObject({ source: 'src/config/settings.ts', verified: true });
      expect(report.contradictions).toEqual([]);
    });

    it('checks a sentence that starts with a lower-case command on its own', async () => {
      const report = await ok('reader', 'verify_response', {
        project_id: projectId,
        response_text: 'The database pool allows 20 connections. npm run dev starts the API with hot reload.',
      });

      expect(report.claims_extracted).toBe(2);
      expect(report.evidence_items.map((item: { claim: string }) => item.claim)).toEqual([
        'The database pool allows 20 connections.',
        'npm run dev starts the API with hot reload.',
      ]);
    });

    it('reports a changed number and a changed path as contradictions', async () => {
      const report = await ok('reader', 'verify_response', {
        project_id: projectId,
        response_text:
          'The HTTP request timeout is 90 seconds. The retry helper retryWithBackoff() in lib/retry.ts retries a failed job 3 times.',
      });

      expect(report.status).not.toBe('ACCEPT');
      expect(report.contradictions).toEqual([
        expect.objectContaining({
          kind: 'number',
          claimed: '90',
          found: '30',
          source: 'src/config/settings.ts',
        }),
        expect.objectContaining({ kind: 'path', claimed: 'lib/retry.ts', found: 'src/retry.ts' }),
      ]);
    });

    it('says NO_CLAIMS with a null score when nothing is checkable, never 1.0', async () => {
      const report = await ok('reader', 'verify_response', {
        project_id: projectId,
        response_text: 'Sure, happy to help! Anything else?',
      });

      expect(report).toMatchObject({ status: 'NO_CLAIMS', grounding_score: null, claims_extracted: 0 });
    });

    it('refuses a key with no grant on the project', async () => {
      const result = await call('stranger', 'verify_response', {
        project_id: projectId,
        response_text: 'The pool has 20.',
      });

      expect(errorOf(result).code).toBe('FORBIDDEN');
    });

    it('names the field and an example when the input is wrong', async () => {
      const result = await call('reader', 'verify_response', { project_id: projectId });

      expect(errorOf(result)).toMatchObject({ code: 'INVALID_INPUT' });
      expect(JSON.stringify(errorOf(result))).toContain('response_text');
    });
  });

  describe('update_memory', () => {
    it('scores an entry against the rest of memory when asked (verify), never against itself', async () => {
      const project = (await ok('owner', 'initialize_context', { project_path: '/srv/scored', mode: 'none' }))
        .project_id;
      const branch = (await ok('owner', 'create_branch', { project_id: project, branch_topic: 'Scored' }))
        .branch_id;
      const save = (content: string, verify: boolean) =>
        ok('owner', 'update_memory', {
          project_id: project,
          branch_id: branch,
          content,
          role: 'assistant',
          verify,
        });

      const fact = await save('The HTTP request timeout is 30 seconds.', false);
      const grounded = await save('The HTTP request timeout is 30 seconds.', true);
      const invented = await save('Invoices are rendered as PDF files with Puppeteer.', true);
      const chat = await save('Glad to help!', true);

      expect(fact).not.toHaveProperty('grounding_score');
      expect(fact).not.toHaveProperty('hallucination_status');
      expect(grounded).toMatchObject({ grounding_score: 1, hallucination_status: 'ACCEPT' });
      expect(invented).toMatchObject({ hallucination_status: 'REJECT' });
      expect(invented.grounding_score).toBeLessThan(0.3);
      expect(chat).toMatchObject({ hallucination_status: 'NO_CLAIMS' });
      expect(chat.grounding_score).toBeUndefined();
    });
  });

  describe('suggestions and automation', () => {
    /** A project of its own, so one test's feedback is not another's history. */
    async function projectWith(path: string, entries: readonly string[]) {
      const project = (await ok('owner', 'initialize_context', { project_path: path, mode: 'none' }))
        .project_id;
      const branch = (await ok('owner', 'create_branch', { project_id: project, branch_topic: 'Work' }))
        .branch_id;
      const ids: string[] = [];
      for (const content of entries) {
        ids.push(
          (
            await ok('owner', 'update_memory', {
              project_id: project,
              branch_id: branch,
              content,
              role: 'user',
            })
          ).entry_id,
        );
      }
      return { project, branch, ids };
    }

    it('suggests by similarity, then from reference history once accepted', async () => {
      const first = await ok('owner', 'suggest_contexts', {
        project_id: projectId,
        current_context: 'Tune the Redis cache TTL for carrier status lookups',
      });
      const [top] = first.suggestions;
      expect(top).toMatchObject({ source: 'similarity', branch_id: childBranch, branch_topic: 'Redis TTLs' });
      expect(top.label).toContain('Redis');
      expect(first.session_id).toMatch(/^sug_/);

      const accepted = await ok('owner', 'accept_suggestions', {
        project_id: projectId,
        session_id: first.session_id,
        context_ids: [top.context_id],
      });
      expect(accepted.accepted_count).toBe(1);

      const again = await ok('owner', 'suggest_contexts', {
        project_id: projectId,
        current_context: 'Carrier status lookups in Redis: which cache TTL?',
      });
      expect(again.suggestions[0]).toMatchObject({ context_id: top.context_id, source: 'reference_history' });
      expect(again.suggestions[0].confidence).toBeGreaterThan(top.confidence);
    });

    it('brings in what was accepted together with the most similar context (co-reference)', async () => {
      const { project, ids } = await projectWith('/srv/coref', [
        'The database pool allows 20 connections.',
        'Carrier webhooks are verified before retries run.',
      ]);
      const [pool, webhook] = ids;
      const together = await ok('owner', 'suggest_contexts', {
        project_id: project,
        current_context: 'pool webhooks',
      });
      await ok('owner', 'accept_suggestions', {
        project_id: project,
        session_id: together.session_id,
        context_ids: [pool, webhook],
      });

      // Shares nothing with "pool webhooks" nor with the pool entry: only the co-reference links them.
      const later = await ok('owner', 'suggest_contexts', {
        project_id: project,
        current_context: 'carrier verification before retries run',
      });

      expect(later.suggestions.map((s: Structured) => s.context_id)).toEqual([webhook, pool]);
      expect(later.suggestions[1]).toMatchObject({
        source: 'reference_history',
        reason: `Accepted together with ${webhook}`,
      });
    });

    it('lowers what was rejected for a similar task, and records the reason', async () => {
      const { project, ids } = await projectWith('/srv/reject', ['The export job writes CSV files nightly.']);
      const before = await ok('owner', 'suggest_contexts', {
        project_id: project,
        current_context: 'nightly CSV export',
      });
      await ok('owner', 'reject_suggestions', {
        project_id: project,
        session_id: before.session_id,
        reason: 'Suggested contexts are from a different project phase',
      });

      const after = await ok('owner', 'suggest_contexts', {
        project_id: project,
        current_context: 'nightly CSV export',
      });

      expect(after.suggestions[0].context_id).toBe(ids[0]);
      expect(after.suggestions[0].confidence).toBeLessThan(before.suggestions[0].confidence);
      const status = await ok('owner', 'get_automation_status', { project_id: project });
      expect(status).toMatchObject({ rejected_count: 1, pending_count: 1 });
    });

    it('records feedback once: a second answer is a CONFLICT, an unsuggested id names context_ids', async () => {
      const session = await ok('owner', 'suggest_contexts', {
        project_id: projectId,
        current_context: 'redis cache',
      });

      const stray = await call('owner', 'accept_suggestions', {
        project_id: projectId,
        session_id: session.session_id,
        context_ids: ['ent_not_suggested'],
      });
      expect(errorOf(stray)).toMatchObject({ code: 'INVALID_INPUT', field: 'context_ids' });

      await ok('owner', 'reject_suggestions', {
        project_id: projectId,
        session_id: session.session_id,
        reason: 'stale',
      });
      const twice = await call('owner', 'reject_suggestions', {
        project_id: projectId,
        session_id: session.session_id,
        reason: 'again',
      });
      expect(errorOf(twice).code).toBe('CONFLICT');
    });

    it('takes exactly one of two concurrent answers to one session', async () => {
      const session = await ok('owner', 'suggest_contexts', {
        project_id: projectId,
        current_context: 'redis cache ttl',
      });
      const context_ids = [session.suggestions[0].context_id];

      const results = await Promise.all([
        call('owner', 'accept_suggestions', {
          project_id: projectId,
          session_id: session.session_id,
          context_ids,
        }),
        call('owner', 'reject_suggestions', {
          project_id: projectId,
          session_id: session.session_id,
          reason: 'race',
        }),
      ]);

      expect(results.filter((r) => !r.isError)).toHaveLength(1);
      expect(errorOf(results.find((r) => r.isError)!).code).toBe('CONFLICT');
    });

    it('lets a read-only key ask for suggestions but not give feedback', async () => {
      const session = await ok('reader', 'suggest_contexts', {
        project_id: projectId,
        current_context: 'redis cache',
      });

      const refused = await call('reader', 'reject_suggestions', {
        project_id: projectId,
        session_id: session.session_id,
        reason: 'no',
      });
      expect(errorOf(refused).code).toBe('FORBIDDEN');
      expect(errorOf(await call('stranger', 'get_automation_status', { project_id: projectId })).code).toBe(
        'FORBIDDEN',
      );
    });

    it('stays on Plan B at 7 of 10 accepted and reaches Plan A at 15 of 15', async () => {
      const feedback = async (project: string, accept: boolean) => {
        const s = await ok('owner', 'suggest_contexts', {
          project_id: project,
          current_context: 'nightly CSV export job',
        });
        if (!accept) {
          await ok('owner', 'reject_suggestions', {
            project_id: project,
            session_id: s.session_id,
            reason: 'not now',
          });
          return;
        }
        const context_ids = [s.suggestions[0].context_id];
        await ok('owner', 'accept_suggestions', {
          project_id: project,
          session_id: s.session_id,
          context_ids,
        });
      };
      const seven = await projectWith('/srv/plan-b', ['The export job writes CSV files nightly.']);
      for (let i = 0; i < 10; i++) await feedback(seven.project, i < 7);
      const fifteen = await projectWith('/srv/plan-a', ['The export job writes CSV files nightly.']);
      for (let i = 0; i < 15; i++) await feedback(fifteen.project, true);

      const planB = await ok('owner', 'get_automation_status', { project_id: seven.project });
      const planA = await ok('owner', 'get_automation_status', { project_id: fifteen.project });

      expect(planB).toMatchObject({
        current_plan: 'B',
        acceptance_rate: 0.7,
        feedback_count: 10,
        accepted_count: 7,
        rejected_count: 3,
      });
      expect(planB.wilson_lower_bound).toBeCloseTo(0.397, 2);
      expect(planA).toMatchObject({ current_plan: 'A', acceptance_rate: 1, feedback_count: 15 });
      expect(planA.wilson_lower_bound).toBeGreaterThanOrEqual(0.7);
    });
  });

  describe('get_context_graph_info', () => {
    it('links branches, their contexts, co-referenced contexts and contexts naming the same code', async () => {
      const session = await ok('owner', 'suggest_contexts', {
        project_id: projectId,
        current_context: 'retryWithBackoff carrier webhooks retries',
      });
      const [a, b] = session.suggestions.map((s: Structured) => s.context_id);
      await ok('owner', 'accept_suggestions', {
        project_id: projectId,
        session_id: session.session_id,
        context_ids: [a, b],
      });

      const graph = await ok('reader', 'get_context_graph_info', { project_id: projectId });

      const types = (type: string) => graph.edges.filter((e: Structured) => e.type === type);
      expect(
        graph.nodes.filter((n: Structured) => n.type === 'branch').map((n: Structured) => n.label),
      ).toEqual(['Caching', 'Redis TTLs']);
      expect(types('parent')).toEqual([{ from: mainBranch, to: childBranch, type: 'parent', weight: 1 }]);
      expect(types('contains')).toHaveLength(3);
      expect(types('co_reference')).toEqual([
        expect.objectContaining({ from: [a, b].sort()[0], to: [a, b].sort()[1], weight: 1 }),
      ]);
      expect(types('shared_entity')).toEqual([expect.objectContaining({ entities: ['retrywithbackoff'] })]);
      expect(graph).toMatchObject({ total_nodes: graph.nodes.length, total_edges: graph.edges.length });
      expect(graph.next_cursor).toBeUndefined();

      const child = await ok('reader', 'get_context_graph_info', {
        project_id: projectId,
        branch_id: childBranch,
      });
      expect(child.nodes.map((n: Structured) => n.type).sort()).toEqual([
        'branch',
        'branch',
        'context',
        'context',
        'context',
      ]);
      expect(
        child.nodes.filter((n: Structured) => n.type === 'context').map((n: Structured) => n.branch_id),
      ).toEqual([childBranch, childBranch, childBranch]);
    });

    it('pages a large graph with a cursor, each page small, every node exactly once', async () => {
      const project = (await ok('owner', 'initialize_context', { project_path: '/srv/big', mode: 'none' }))
        .project_id;
      const branch = (await ok('owner', 'create_branch', { project_id: project, branch_topic: 'Big' }))
        .branch_id;
      for (let i = 0; i < 120; i++) {
        await ok('owner', 'update_memory', {
          project_id: project,
          branch_id: branch,
          content: `Module ${i} lives in src/shared/module.ts and calls sharedHelper() ${'with a long note '.repeat(20)}`,
          role: 'assistant',
        });
      }

      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await ok('owner', 'get_context_graph_info', {
          project_id: project,
          ...(cursor ? { cursor } : {}),
        });
        seen.push(...page.nodes.map((n: Structured) => n.id));
        sizes.push(JSON.stringify(page).length);
        expect(page.edges.length).toBeLessThanOrEqual(100);
        cursor = page.next_cursor;
      } while (cursor);

      console.info('context graph page sizes (characters)', sizes);
      expect(new Set(seen).size).toBe(121);
      expect(seen).toHaveLength(121);
      // About 4 characters a token: every page stays far below a 50k-token answer.
      expect(Math.max(...sizes)).toBeLessThan(40_000);
    }, 60_000);

    it('refuses a cursor once the memory changed, and an unknown branch', async () => {
      const first = await ok('reader', 'get_context_graph_info', { project_id: projectId, limit: 1 });
      await ok('owner', 'update_memory', {
        project_id: projectId,
        branch_id: mainBranch,
        content: 'A new note changes the revision.',
        role: 'user',
      });

      const stale = await call('reader', 'get_context_graph_info', {
        project_id: projectId,
        cursor: first.next_cursor,
      });
      const unknown = await call('reader', 'get_context_graph_info', {
        project_id: projectId,
        branch_id: 'nope',
      });

      const forged = await call('reader', 'get_context_graph_info', {
        project_id: projectId,
        cursor: 'not-a-cursor',
      });

      expect(errorOf(stale).code).toBe('CONFLICT');
      expect(errorOf(forged)).toMatchObject({ code: 'INVALID_INPUT', field: 'cursor' });
      expect(errorOf(unknown).code).toBe('BRANCH_NOT_FOUND');
    });
  });
});
