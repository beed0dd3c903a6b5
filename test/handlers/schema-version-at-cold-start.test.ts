/**
 * The deployed functions check the table's schema version on their first invocation, as the
 * laptop runtime checks its data folder: an older table is brought up to date, a newer one is
 * refused with a clear error. Each case loads the handler fresh (a new container) on dynalite.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import type { BookingInput } from '../../lambdas/core/booking/booking-schemas.js';
import { CURRENT_SCHEMA_VERSION, ensureSchemaVersion } from '../../lambdas/core/storage/schema-version.js';
import { lambdaContext, lambdaFetch } from '../support/lambda-fetch.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTableRequestLog } from '../support/table-request-log.js';
import type { TestRuntime } from '../support/test-runtime.js';
import { type LoadedLambdaHandler, loadLambdaHandler } from './lambda-target.js';

const MCP_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/mcp';
const NEWER = CURRENT_SCHEMA_VERSION + 1;
/** DynamoDB operations that change the table. */
const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'];

/** Marks the table as written by a Meridian one schema version ahead of this one. */
async function writtenByNewerMeridian(runtime: TestRuntime): Promise<void> {
  await ensureSchemaVersion(
    runtime.store,
    () => new Date(),
    [{ to: NEWER, summary: 'a later layout', run: async () => undefined }],
    NEWER,
  );
}

/** The table's version, read as this Meridian reads it (no step to apply: it only reports). */
async function versionOf(runtime: TestRuntime): Promise<number> {
  return (await ensureSchemaVersion(runtime.store, () => new Date(), [], Number.MAX_SAFE_INTEGER)).found;
}

describe('the schema check at a Lambda cold start', { timeout: 60_000 }, () => {
  let lambda: LoadedLambdaHandler | undefined;

  let tableLog: Awaited<ReturnType<typeof startTableRequestLog>> | undefined;

  afterEach(async () => {
    await tableLog?.close();
    await lambda?.close();
    lambda = undefined;
    tableLog = undefined;
  });

  /**
   * A fresh container of the MCP function whose table requests go through a log, as
   * `coldMcpFunction`; handlers imported after it share its modules (one container).
   */
  async function coldFunctionsLogged(prepareTable: (runtime: TestRuntime) => Promise<void>) {
    vi.resetModules();
    lambda = await loadLambdaHandler(async () => {
      tableLog = await startTableRequestLog(process.env.AWS_ENDPOINT_URL_DYNAMODB!);
      process.env.AWS_ENDPOINT_URL_DYNAMODB = tableLog.endpoint;
      return import('../../lambdas/handlers/mcp-http.js');
    }, prepareTable);
    return { mcp: lambda, log: tableLog! };
  }

  /** A fresh container of the MCP function over a fresh table, as `prepareTable` leaves it before the start. */
  async function coldMcpFunction(
    prepareTable?: (runtime: TestRuntime) => Promise<void>,
  ): Promise<LoadedLambdaHandler> {
    vi.resetModules();
    lambda = await loadLambdaHandler(() => import('../../lambdas/handlers/mcp-http.js'), prepareTable);
    return lambda;
  }

  it('brings a table written before versioning up to date, then serves', async () => {
    let before: number | undefined;
    const mcp = await coldMcpFunction(async (runtime) => {
      before = await versionOf(runtime);
    });
    expect(before).toBe(0);

    const { token } = await mcp.runtime.newKey('schema');
    const client = await connectHttpClient(MCP_URL, lambdaFetch(mcp.handler), {
      authorization: `Bearer ${token}`,
    });
    const { tools } = await client.listTools();
    await client.close();

    expect(tools.length).toBeGreaterThan(0);
    expect(await versionOf(mcp.runtime)).toBe(CURRENT_SCHEMA_VERSION);
  });

  it('refuses every request on a table a newer Meridian wrote, naming both versions, and leaves it as it is', async () => {
    const mcp = await coldMcpFunction(writtenByNewerMeridian);
    const { token } = await mcp.runtime.newKey('schema');
    const fetchMcp = lambdaFetch(mcp.handler);
    const post = () =>
      fetchMcp(MCP_URL, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });

    const first = await post();
    const second = await post();

    for (const answer of [first, second]) {
      expect(answer.status).toBe(503);
      const body = (await answer.json()) as { error: { code: number; message: string; data: unknown } };
      expect(body.error.code).toBe(-32000);
      expect(body.error.message).toContain(`schema version ${NEWER}`);
      expect(body.error.message).toContain(`up to version ${CURRENT_SCHEMA_VERSION}`);
      expect(body.error.message).toMatch(/Run the newer Meridian/);
      expect(body.error.data).toEqual({
        code: 'UNSUPPORTED_FORMAT',
        found: NEWER,
        supported: CURRENT_SCHEMA_VERSION,
      });
    }
    expect(await versionOf(mcp.runtime)).toBe(NEWER);
  });

  it('fails a scheduled function’s invocation on a newer table with the same message', async () => {
    await coldMcpFunction(writtenByNewerMeridian);
    const { handler } = await import('../../lambdas/handlers/sync-job.js');

    await expect(
      handler({}, { ...lambdaContext(), getRemainingTimeInMillis: () => 300_000 }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
      message: expect.stringContaining(`schema version ${NEWER}`),
    });
  });

  // The first request runs alongside the schema check (runtime/schema-gated-store.ts): these show
  // that a write on the cold path still waits for it, and is refused without reaching the table.
  it('refuses a first tools/call that writes on a newer table without sending any write to it', async () => {
    const { mcp, log } = await coldFunctionsLogged(writtenByNewerMeridian);
    const { token } = await mcp.runtime.newKey('schema');
    log.take();

    const answer = await lambdaFetch(mcp.handler)(MCP_URL, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_project', arguments: { name: 'Never written' } },
      }),
    });

    expect(answer.status).toBe(503);
    const body = (await answer.json()) as { error: { data: unknown } };
    expect(body.error.data).toEqual({
      code: 'UNSUPPORTED_FORMAT',
      found: NEWER,
      supported: CURRENT_SCHEMA_VERSION,
    });
    expect(log.take().filter((operation) => WRITES.includes(operation))).toEqual([]);
    expect(await mcp.runtime.rules.projects.list()).toEqual([]);
  });

  it('refuses a cold booking step on a newer table before it claims or locks anything', async () => {
    let calendar: BookingInput['calendar'] | undefined;
    const { log } = await coldFunctionsLogged(async (runtime) => {
      const created = await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Desk', time_zone: 'UTC' });
      calendar = await runtime.registry.requireCalendar(created.id);
      await writtenByNewerMeridian(runtime);
    });
    const { lockHandler } = await import('../../lambdas/handlers/booking-steps.js');
    const input: BookingInput = {
      booking_id: 'cold-refused',
      idempotency_key: 'cold-refused-key',
      request_hash: 'cold',
      principal: 'local-owner',
      calendar: calendar!,
      start: '2031-01-06T09:00:00Z',
      end: '2031-01-06T10:00:00Z',
      summary: 'Never locked',
    };
    log.take();

    await expect(lockHandler(input, lambdaContext())).rejects.toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
      message: expect.stringContaining(`schema version ${NEWER}`),
    });
    const sent = log.take();
    expect(sent.filter((operation) => WRITES.includes(operation))).toEqual([]);
  });
});
