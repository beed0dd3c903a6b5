import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { lambdaContext } from '../support/lambda-fetch.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

type Handler = typeof import('../../lambdas/handlers/memory-compression-job.js')['handler'];

/** A Lambda context with `remainingMs` before the timeout. */
const jobContext = (remainingMs = 300_000) => ({
  ...lambdaContext(),
  getRemainingTimeInMillis: () => remainingMs,
});

describe('memory compression Lambda handler', () => {
  let dynalite: Awaited<ReturnType<typeof startDynalite>>;
  let runtime: TestRuntime;
  let handler: Handler;
  let projectId: string;
  let branchId: string;

  beforeAll(async () => {
    // The handler builds its own AWS composition from the environment, on the system clock; the
    // memory it finds was written by a runtime whose clock runs an hour behind, so it is idle.
    dynalite = await startDynalite();
    runtime = await startTestRuntime({
      endpoint: dynalite.endpoint,
      clock: { now: () => new Date(Date.now() - 60 * 60_000) },
    });
    Object.assign(process.env, {
      POWERTOOLS_LOG_LEVEL: 'CRITICAL',
      MERIDIAN_TABLE_NAME: runtime.tableName,
      // Small entries never reach the bucket: nothing here calls S3.
      MERIDIAN_MEMORY_BUCKET_NAME: 'meridian-memory-test',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynalite.endpoint,
    });
    projectId = (await runtime.rules.projects.create({ name: 'Shop' })).project_id;
    branchId = (await runtime.memory.createBranch(LOCAL_OWNER, projectId, { topic: 'Checkout' })).branch_id;
    await runtime.memory.updateMemory(LOCAL_OWNER, projectId, {
      branch_id: branchId,
      role: 'assistant',
      content: 'Carts expire after 7 days.',
    });
    ({ handler } = await import('../../lambdas/handlers/memory-compression-job.js'));
  });

  afterAll(async () => {
    await runtime?.close();
    await dynalite?.close();
  });

  it('stops before visiting anything when the timeout is near', async () => {
    expect(await handler({}, jobContext(30_000))).toEqual({
      projects: 0,
      contexts_compressed: 0,
      projects_released: 0,
      generations_discarded: 0,
      snapshots_collected: 0,
      failures: [],
    });
  });

  it('compresses the idle context and returns the totals of the run', async () => {
    const result = await handler({}, jobContext());

    expect(result).toEqual({
      projects: 1,
      contexts_compressed: 1,
      projects_released: 0,
      generations_discarded: 0,
      snapshots_collected: 0,
      failures: [],
    });
    const view = await runtime.memory.memory.branchView(projectId, branchId);
    expect(view).toMatchObject({ status: 'compressed', rows: [] });
    expect(view.entries.map((e) => e.content)).toEqual(['Carts expire after 7 days.']);
  });
});
