import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynaliteServer, startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { createMcpServer } from '../../lambdas/mcp/create-mcp-server.js';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { type CallToolResult, errorOf } from '../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/** A store that stops answering: callers are told to retry (STORAGE_ERROR), never -32603. */
describe('a store that fails', { timeout: 60_000 }, () => {
  let dynalite: DynaliteServer;
  let runtime: TestRuntime;
  let client: Client;
  let token: string;
  let calendarId: string;

  beforeAll(async () => {
    dynalite = await startDynalite();
    runtime = await startTestRuntime({ endpoint: dynalite.endpoint });
    calendarId = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Down' })).id;
    token = (await runtime.newKey()).token;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(runtime, { principal: LOCAL_OWNER }).connect(serverSide);
    client = new Client({ name: 'meridian-test', version: '1.0.0' });
    await client.connect(clientSide);
    await dynalite.close();
  });

  afterAll(async () => {
    await client?.close();
    await runtime?.close();
  });

  it.each([
    ['list_calendars', {}],
    [
      'create_event',
      {
        summary: 'x',
        start: { date_time: '2027-01-01T09:00:00Z' },
        end: { date_time: '2027-01-01T10:00:00Z' },
      },
    ],
  ])('answers %s with isError STORAGE_ERROR and what to do', async (name, args) => {
    const result = (await client.callTool({
      name,
      arguments: name === 'create_event' ? { calendar_id: calendarId, ...args } : args,
    })) as CallToolResult;

    expect(errorOf(result).code).toBe('STORAGE_ERROR');
    expect(errorOf(result).message).toMatch(/Retry in a few seconds/);
  });

  it('answers a resource it cannot read with -32603 and what to do, not -32602', async () => {
    const refused = await client.readResource({ uri: 'timesheet://projects' }).catch((error) => error);

    expect(refused).toMatchObject({ code: -32603, data: { code: 'STORAGE_ERROR' } });
    expect(refused.message).toMatch(/Retry in a few seconds/);
  });

  it('answers an HTTP request it cannot authenticate with 503 and Retry-After', async () => {
    const response = await routeHttpRequest(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
      runtime,
    );

    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /data store failed/,
    );
  });
});
