import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, errorOf, okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/** Records one project may hold here: a branch and a batch of 50 fit, ten more do not. */
const ITEMS_CAP = 60;
/** The strict server's work allowance: less than a full batch of 50. */
const STRICT_WORK = 45;

/**
 * Issue 22, item 7: memory as an agent uses it, through the SDK's real Client over HTTP on
 * dynalite — update_memory takes a batch and reports every entry; get_active_summary answers
 * the branch worked on last when none is named or linked, and what the whole project decided.
 */
describe('memory for agents', () => {
  let served: ServedRuntime;
  let strict: ServedRuntime;
  let owner: Client;
  let ownerStrict: Client;
  let stranger: Client;

  const ok = (client: Client, name: string, args: Record<string, unknown>) => okTool(client, name, args);
  const newProject = async (path: string) =>
    (await ok(owner, 'initialize_context', { project_path: path, mode: 'none' })).project_id as string;
  const newBranch = async (projectId: string, topic: string) =>
    (await ok(owner, 'create_branch', { project_id: projectId, branch_topic: topic })).branch_id as string;
  const messagesIn = async (projectId: string, branchId: string) =>
    (await ok(owner, 'load_context', { project_id: projectId, branch_id: branchId })).metadata
      .message_count as number;
  const batch = (n: number, label: string) =>
    Array.from({ length: n }, (_, i) => ({
      role: 'user',
      content: `${label} decision ${i}: keep it simple.`,
    }));

  beforeAll(async () => {
    const runtime = await startTestRuntime({ memoryItemsCap: ITEMS_CAP });
    served = await serveRuntime(runtime);
    // The same runtime (keys, tables) behind a server whose calls may do less work.
    strict = await serveRuntime(
      Object.assign(Object.create(runtime) as TestRuntime, {
        callLimits: { deadlineMs: 30_000, workItems: STRICT_WORK },
        close: async () => {},
      }),
    );
    const key = await served.connect('owner');
    owner = key.client;
    ownerStrict = await strict.connectToken(key.token);
    stranger = (await served.connect('stranger')).client;
  }, 60_000);

  afterAll(async () => {
    await strict?.close();
    await served?.close();
  });

  describe('update_memory with entries', () => {
    it('stores a batch of 50 in order and reports each entry, a redacted secret included', async () => {
      const projectId = await newProject('/srv/batch');
      const branchId = await newBranch(projectId, 'Decisions');
      const entries = batch(50, 'Batch');
      entries[7] = { role: 'assistant', content: 'Rotated the CI key AKIAIOSFODNN7EXAMPLE today.' };

      const saved = await ok(owner, 'update_memory', { project_id: projectId, branch_id: branchId, entries });

      expect(saved).toMatchObject({ success: true, message: 'Stored 50 of 50.' });
      expect(saved.results).toHaveLength(50);
      expect(saved.results.map((r: { index: number }) => r.index)).toEqual([...Array(50).keys()]);
      expect(new Set(saved.results.map((r: { entry_id: string }) => r.entry_id)).size).toBe(50);
      expect(saved.results[7]).toMatchObject({ version: 1, secrets_redacted: 1 });
      expect(saved.results[0]).toMatchObject({ version: 1, secrets_redacted: 0 });
      const context = await ok(owner, 'load_context', { project_id: projectId, branch_id: branchId });
      expect(context.metadata.message_count).toBe(50);
      expect(context.content.indexOf('Batch decision 3:')).toBeLessThan(
        context.content.indexOf('Batch decision 49:'),
      );
      expect(context.content).not.toContain('IOSFODNN7EXAMPLE');
    });

    it('stores the good entries of a mixed batch and refuses the others with their code', async () => {
      const projectId = await newProject('/srv/mixed');
      const branchId = await newBranch(projectId, 'Mixed');
      const first = await ok(owner, 'update_memory', {
        project_id: projectId,
        branch_id: branchId,
        role: 'user',
        content: 'The first note.',
      });

      const saved = await ok(owner, 'update_memory', {
        project_id: projectId,
        branch_id: branchId,
        entries: [
          { role: 'user', content: 'Appended A.' },
          { role: 'user', content: 'A stale rewrite.', entry_id: first.entry_id, if_version: 5 },
          { role: 'user', content: 'A rewrite of nothing.', entry_id: 'e000000000000000000000' },
          { role: 'assistant', content: 'Appended B.' },
        ],
      });

      expect(saved.success).toBe(false);
      expect(saved.results.map((r: { error?: { code: string } }) => r.error?.code ?? 'stored')).toEqual([
        'stored',
        'CONFLICT',
        'NOT_FOUND',
        'stored',
      ]);
      expect(saved.message).toBe('Stored 2 of 4; refused: entry 1 (CONFLICT), entry 2 (NOT_FOUND).');
      expect(await messagesIn(projectId, branchId)).toBe(3);
    });

    it('answers an error naming each reason when no entry of the batch could be stored', async () => {
      const projectId = await newProject('/srv/none-stored');
      const branchId = await newBranch(projectId, 'None');
      const first = await ok(owner, 'update_memory', {
        project_id: projectId,
        branch_id: branchId,
        role: 'user',
        content: 'The only note.',
      });

      const error = errorOf(
        await callTool(owner, 'update_memory', {
          project_id: projectId,
          branch_id: branchId,
          entries: [{ role: 'user', content: 'Stale.', entry_id: first.entry_id, if_version: 9 }],
        }),
      );

      expect(error.code).toBe('CONFLICT');
      expect(error.failures).toMatchObject([{ index: 0, code: 'CONFLICT' }]);
    });

    it('refuses a batch to a key with no grant on the project, and stores nothing', async () => {
      const projectId = await newProject('/srv/guarded');
      const branchId = await newBranch(projectId, 'Guarded');

      for (const branch_id of [branchId, 'no_such_branch']) {
        const error = errorOf(
          await callTool(stranger, 'update_memory', {
            project_id: projectId,
            branch_id,
            entries: batch(50, 'X'),
          }),
        );
        // The same answer for a real and a made-up branch: the key learns nothing about the project.
        expect(error.code).toBe('FORBIDDEN');
      }
      expect(await messagesIn(projectId, branchId)).toBe(0);
    });

    it('refuses a batch that would pass the project’s record cap before storing any of it', async () => {
      const projectId = await newProject('/srv/full');
      const branchId = await newBranch(projectId, 'Full');
      await ok(owner, 'update_memory', {
        project_id: projectId,
        branch_id: branchId,
        entries: batch(50, 'One'),
      });

      const error = errorOf(
        await callTool(owner, 'update_memory', {
          project_id: projectId,
          branch_id: branchId,
          entries: batch(10, 'Two'),
        }),
      );

      expect(error.code).toBe('QUOTA_EXCEEDED');
      expect(await messagesIn(projectId, branchId)).toBe(50);
    });

    it('refuses a batch larger than the call’s work allowance before storing any of it', async () => {
      const projectId = await newProject('/srv/strict');
      const branchId = await newBranch(projectId, 'Strict');

      const error = errorOf(
        await callTool(ownerStrict, 'update_memory', {
          project_id: projectId,
          branch_id: branchId,
          entries: batch(STRICT_WORK + 1, 'Over'),
        }),
      );

      expect(error.code).toBe('WORK_LIMIT_EXCEEDED');
      expect(await messagesIn(projectId, branchId)).toBe(0);
      const fits = await ok(ownerStrict, 'update_memory', {
        project_id: projectId,
        branch_id: branchId,
        entries: batch(STRICT_WORK, 'Fits'),
      });
      expect(fits.results).toHaveLength(STRICT_WORK);
    });

    it.each([
      ['51 entries', { entries: batch(51, 'Y') }, 'entries'],
      ['entries beside content', { entries: batch(2, 'Y'), content: 'And this.', role: 'user' }, 'content'],
      ['entries with verify', { entries: batch(2, 'Y'), verify: true }, 'verify'],
      ['content without role', { content: 'No role.' }, 'role'],
      ['neither content nor entries', { role: 'user' }, 'content'],
    ])('refuses %s, naming the field', async (_case, args, field) => {
      const projectId = await newProject('/srv/invalid');
      const branchId = await newBranch(projectId, 'Invalid');

      const error = errorOf(
        await callTool(owner, 'update_memory', { project_id: projectId, branch_id: branchId, ...args }),
      );

      expect(error.code).toBe('INVALID_INPUT');
      expect(JSON.stringify(error)).toContain(field);
      expect(await messagesIn(projectId, branchId)).toBe(0);
    });
  });

  describe('get_active_summary', () => {
    let projectId: string;
    let payments: string;
    let data: string;

    beforeAll(async () => {
      projectId = await newProject('/srv/decided');
      payments = await newBranch(projectId, 'Payments');
      data = await newBranch(projectId, 'Data');
      const save = (branch_id: string, contents: string[]) =>
        ok(owner, 'update_memory', {
          project_id: projectId,
          branch_id,
          entries: contents.map((content) => ({ role: 'user', content })),
        });
      await save(data, [
        'We decided on PostgreSQL 16 over MongoDB for relational integrity. Ran the migrations, all green.',
        'Open question: which region hosts the read replica?',
      ]);
      await save(payments, [
        'Payment processor: Stripe chosen, Adyen rejected because onboarding took too long.',
        'Should refunds go through the same queue as payouts?',
      ]);
      // The newest entry is on Data, created second: "most recent" is by writing, not creation.
      await save(data, ['We decided the read replica is hosted in region eu-west-1.']);
    }, 60_000);

    it('answers the branch written to last when none is named or linked, and says it chose it', async () => {
      const summary = await ok(owner, 'get_active_summary', { project_id: projectId });

      expect(summary).toMatchObject({ branch_id: data, branch_topic: 'Data', resolved_from: 'most_recent' });
      expect(summary.note).toContain('branch written to last');
      expect(summary.project).toBeUndefined();
    });

    it('still refuses a git branch that is named but linked to none', async () => {
      const error = errorOf(
        await callTool(owner, 'get_active_summary', { project_id: projectId, git_branch: 'feature/none' }),
      );

      expect(error.code).toBe('BRANCH_NOT_FOUND');
    });

    it('says a project without branches has none yet', async () => {
      const empty = await newProject('/srv/empty');

      const error = errorOf(await callTool(owner, 'get_active_summary', { project_id: empty }));

      expect(error.code).toBe('BRANCH_NOT_FOUND');
      expect(error.message).toContain('create_branch');
    });

    it('says what the whole project decided, set aside and left open, across branches', async () => {
      const { project } = await ok(owner, 'get_active_summary', {
        project_id: projectId,
        branch_id: payments,
        project_summary: true,
      });

      expect(
        project.decisions.map((d: { text: string; branch_id: string }) => [d.branch_id, d.text]),
      ).toEqual([
        [data, 'We decided on PostgreSQL 16 over MongoDB for relational integrity.'],
        [payments, 'Payment processor: Stripe chosen, Adyen rejected because onboarding took too long.'],
        [data, 'We decided the read replica is hosted in region eu-west-1.'],
      ]);
      expect(project.rejected.map((r: { alternative: string }) => r.alternative)).toEqual([
        'MongoDB',
        'Adyen',
      ]);
      // The replica question was answered by a later decision; the refunds one is still open.
      expect(project.open_questions).toEqual([
        expect.objectContaining({
          branch_id: payments,
          text: 'Should refunds go through the same queue as payouts?',
        }),
      ]);
      expect(project.omitted).toEqual({ decisions: 0, rejected: 0, open_questions: 0 });
    });

    it('refuses the project summary when the memory is larger than the call’s work allowance', async () => {
      const big = await newProject('/srv/big');
      const branch = await newBranch(big, 'Big');
      await ok(owner, 'update_memory', {
        project_id: big,
        branch_id: branch,
        entries: batch(STRICT_WORK, 'Big'),
      });
      await ok(owner, 'update_memory', {
        project_id: big,
        branch_id: branch,
        role: 'user',
        content: 'One more.',
      });

      const error = errorOf(
        await callTool(ownerStrict, 'get_active_summary', { project_id: big, project_summary: true }),
      );

      expect(error.code).toBe('WORK_LIMIT_EXCEEDED');
      expect(error.message).toContain('project_summary');
    });
  });
});
