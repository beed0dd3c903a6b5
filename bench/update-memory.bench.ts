/**
 * update_memory on dynalite (the embedded runtime's store) against the write it cannot do
 * without: one bare conditional put of an entry-sized item. update_memory adds the grant check
 * (answered from the grants read with the key when the request was authenticated), the secret
 * redaction and category, and the pointer's new revision after the entry (a second write). The
 * principal is authenticated from the token once, as each HTTP request's is; authentication (one
 * query every request pays, whatever the tool) is outside both timings.
 */
import { randomUUID } from 'node:crypto';
import { idleIndexAttributes } from '../lambdas/core/memory/store/memory-keys.js';
import { projectResource } from '../lambdas/core/rules/project-access.js';
import { updateMemoryTool } from '../lambdas/mcp/tools/memory/update-memory.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { compare, reportRatio } from './harness.js';

const CONTENT =
  'Implemented the retry policy for failed card payments: two retries, 30 s apart, then the order is parked ' +
  'for review. Tests cover the declined and the timeout paths.';

export async function run(): Promise<void> {
  const runtime = await startTestRuntime({ projectFolders: null });
  const key = await runtime.newKey('bench');
  const project = await runtime.rules.projects.create({ name: 'Bench' });
  await runtime.access.setGrant(key.keyId, projectResource(project.project_id), 'write');
  const principal = await runtime.access.authenticate(key.token);
  if (!principal) throw new Error('the bench key did not authenticate');
  const branch = await runtime.memory.createBranch(principal, project.project_id, { topic: 'Payments' });
  const input = {
    project_id: project.project_id,
    branch_id: branch.branch_id,
    role: 'assistant' as const,
    content: CONTENT,
  };

  const viaTool = async () => {
    await updateMemoryTool.run(runtime, input, { principal });
  };
  const barePut = async () => {
    // The same item shape, under a partition of its own: a fresh key each time, like an entry.
    await runtime.store.put(
      { pk: 'BENCH', sk: randomUUID(), role: 'assistant', content: CONTENT, version: 1 },
      { condition: { op: 'not_exists' } },
    );
  };

  // A warm process: the first few hundred calls run while the JIT and dynalite settle, which the
  // bare put (simpler code) is through far sooner; ten warm-up calls per round are not enough.
  for (let i = 0; i < 300; i++) {
    await viaTool();
    await barePut();
  }
  const result = await compare(
    { name: 'update_memory (tool, grant checked)', fn: viaTool },
    { name: 'bare conditional put', fn: barePut },
    { rounds: 5, runs: 100, warmup: 10 },
  );
  reportRatio('update_memory vs a bare conditional put, median', result, { kind: 'slowdown', value: 2 });
  // What the design cannot go below: the entry, then the pointer's revision conditional on the
  // generation and the revision the append counted against (ADR 0009, ADR 0008 decision 11), each
  // with the attributes update_memory's own puts carry (the pointer in the idle index): on dynalite
  // the store's CPU grows with the item and the condition, and that is the writes' cost, not the
  // tool's. The gap between the two lines is update_memory's own work.
  let revision = 0;
  await runtime.store.put({ pk: 'BENCH_POINTER', sk: 'POINTER', generation: 'g1', revision: '0' });
  const twoPuts = async () => {
    const now = new Date().toISOString();
    const entryId = randomUUID();
    await runtime.store.put(
      {
        entry_id: entryId,
        branch_id: branch.branch_id,
        role: 'assistant',
        category: 'development',
        content: CONTENT,
        version: 1,
        created_at: now,
        updated_at: now,
        pk: 'BENCH',
        sk: `G#g1#ENT#${branch.branch_id}#${entryId}`,
      },
      { condition: { op: 'not_exists' } },
    );
    revision += 1;
    await runtime.store.put(
      {
        pk: 'BENCH_POINTER',
        sk: 'POINTER',
        generation: 'g1',
        revision: String(revision),
        updated_at: now,
        ...idleIndexAttributes(now),
      },
      {
        condition: {
          op: 'and',
          conditions: [
            { op: 'eq', attribute: 'generation', value: 'g1' },
            { op: 'eq', attribute: 'revision', value: String(revision - 1) },
          ],
        },
      },
    );
  };
  const floor = await compare(
    { name: 'update_memory (tool, grant checked)', fn: viaTool },
    { name: 'entry put, then pointer put, as update_memory writes them', fn: twoPuts },
    { rounds: 5, runs: 100, warmup: 10 },
  );
  reportRatio(
    'update_memory vs its two sequential conditional puts (its items, its conditions), median',
    floor,
    {
      kind: 'slowdown',
      value: 1.25,
    },
  );
  // The idle-compression index rides on that pointer put (gsi1pk/gsi1sk, ADR 0009): the same
  // conditional put with and without the two index attributes, on two pointers of their own.
  let indexRevision = 0;
  const pointerPut = (pk: string, indexed: boolean) => async () => {
    indexRevision += 1;
    const updatedAt = new Date().toISOString();
    await runtime.store.put(
      {
        pk,
        sk: 'POINTER',
        generation: 'g1',
        revision: String(indexRevision),
        updated_at: updatedAt,
        ...(indexed ? idleIndexAttributes(updatedAt) : {}),
      },
      {
        condition: {
          op: 'or',
          conditions: [{ op: 'not_exists' }, { op: 'eq', attribute: 'generation', value: 'g1' }],
        },
      },
    );
  };
  const index = await compare(
    { name: 'pointer put, in the idle index', fn: pointerPut('BENCH_POINTER_INDEXED', true) },
    { name: 'pointer put, not indexed', fn: pointerPut('BENCH_POINTER_PLAIN', false) },
    { rounds: 5, runs: 100, warmup: 10 },
  );
  reportRatio('the idle index on the pointer put (dynalite maintains gsi1 in the put), median', index, {
    kind: 'slowdown',
    value: 1.1,
  });
  await runtime.close();
}
