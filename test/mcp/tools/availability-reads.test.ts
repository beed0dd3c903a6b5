import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTableRequestLog } from '../../support/table-request-log.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/**
 * The table requests of a warm check_availability on a native calendar, seen from outside the
 * server: each is a round trip on the call's path, and a cold start pays them one after another.
 */
describe('check_availability on a native calendar', () => {
  let dynalite: Awaited<ReturnType<typeof startDynalite>>;
  let tableLog: Awaited<ReturnType<typeof startTableRequestLog>>;
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let agent: Client;
  let calendarId: string;

  beforeAll(async () => {
    dynalite = await startDynalite();
    tableLog = await startTableRequestLog(dynalite.endpoint);
    runtime = await startTestRuntime({ endpoint: tableLog.endpoint });
    served = await serveRuntime(runtime);
    calendarId = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Work', time_zone: 'UTC' })).id;
    const key = await served.connect('agent');
    await runtime.access.setGrant(key.keyId, calendarResource(calendarId), 'read');
    agent = key.client;
  });

  afterAll(async () => {
    await served?.close();
    await tableLog?.close();
    await dynalite?.close();
  });

  const check = () =>
    okTool<{ available: boolean }>(agent, 'check_availability', {
      calendar_id: calendarId,
      start: '2031-01-06T09:00:00Z',
      end: '2031-01-06T10:00:00Z',
    });

  it("reads the calendar's record once: the access check's read serves the events' read too", async () => {
    await check(); // the key's budget and everything else a first call reads once
    tableLog.take();
    expect((await check()).available).toBe(true);
    const gets = tableLog.take().filter((operation) => operation === 'GetItem');
    // The calendar's record and its booking holds; before, the shadow read the record again.
    expect(gets).toHaveLength(2);
  });
});
