import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { captureEmfLines, linesWith } from '../support/emf-lines.js';
import { lambdaContext } from '../support/lambda-fetch.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

type Handler = typeof import('../../lambdas/handlers/sync-job.js')['handler'];

/** A Lambda context with the sync function's five minutes ahead of it (or `remainingMs`). */
const syncContext = (remainingMs = 300_000) => ({
  ...lambdaContext(),
  getRemainingTimeInMillis: () => remainingMs,
});

describe('sync job Lambda handler', () => {
  let dynalite: Awaited<ReturnType<typeof startDynalite>>;
  let runtime: TestRuntime;
  let handler: Handler;

  beforeAll(async () => {
    // The handler builds its own AWS composition from the environment, as on Lambda; only the
    // endpoint points at a local DynamoDB.
    dynalite = await startDynalite();
    runtime = await startTestRuntime({ endpoint: dynalite.endpoint });
    Object.assign(process.env, {
      POWERTOOLS_LOG_LEVEL: 'CRITICAL',
      MERIDIAN_TABLE_NAME: runtime.tableName,
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynalite.endpoint,
    });
    await runtime.registry.putCalendar({
      calendar_id: 'native/n1',
      provider: 'native',
      connection_id: 'native',
      native_id: 'n1',
      name: 'Mine',
      label: null,
      primary: true,
      access_role: 'owner',
      created_at: '2026-01-01T00:00:00Z',
    });
    ({ handler } = await import('../../lambdas/handlers/sync-job.js'));
  });

  afterAll(async () => {
    await runtime?.close();
    await dynalite?.close();
  });

  it('returns the totals of a run: native calendars need no sync', async () => {
    const result = await handler({}, syncContext());

    expect(result).toEqual({
      synced: 0,
      unchanged: 0,
      skipped: 0,
      failed: 0,
      upserted: 0,
      deleted: 0,
      native: 1,
      failures: [],
    });
  });

  it('reports a calendar that fails in the result instead of failing the invocation', async () => {
    await runtime.registry.putConnection({
      connection_id: 'c1',
      provider: 'caldav',
      connection_kind: 'password',
      account: 'alice',
      label: null,
      server_url: 'http://127.0.0.1:9/',
      // Not a ciphertext the data key could open: decrypting the secret fails before any request.
      secret_ciphertext: Buffer.from('not an encryption sdk message').toString('base64'),
      created_at: '2026-01-01T00:00:00Z',
    });
    await runtime.registry.putCalendar({
      calendar_id: 'caldav/c1/work',
      provider: 'caldav',
      connection_id: 'c1',
      native_id: 'work',
      name: 'Work',
      label: null,
      primary: false,
      access_role: 'owner',
      created_at: '2026-01-01T00:00:00Z',
    });

    const emf = captureEmfLines();
    const result = await handler({}, syncContext()).finally(() => emf.restore());

    expect(result).toMatchObject({ synced: 0, failed: 1, native: 1 });
    // What the staleness alarm reads: service-wide counts, no calendar id as a dimension.
    expect(
      linesWith(emf.lines, 'SyncFailedCalendars').map((line) => [
        line._aws.CloudWatchMetrics[0]?.Dimensions,
        line.SyncedCalendars,
        line.SyncFailedCalendars,
      ]),
    ).toEqual([[[['service']], 0, 1]]);
    expect(result.failures).toEqual([
      expect.objectContaining({ calendar_id: 'caldav/c1/work', status: 'failed', error: expect.any(Object) }),
    ]);
  });

  it('leaves calendars for the next run when the invocation is about to time out', async () => {
    const result = await handler({ calendar_ids: ['caldav/c1/work'] }, syncContext(59_000));

    expect(result).toMatchObject({ skipped: 1, failed: 0, failures: [] });
  });

  it('refuses an event that is not a sync request', async () => {
    await expect(handler({ calendar_ids: [] }, lambdaContext())).rejects.toThrow();
  });
});
