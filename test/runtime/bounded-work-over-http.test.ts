import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lambdas/core/ports.js';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../../lambdas/runtime/node-http-server.js';
import { connectHttpClient, errorOf } from '../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/**
 * Issue 8, finding 4: one expand_rrule call took 12 s and held /health for 7.4 s. With work
 * budgets, worst-case time and recurrence calls are refused (or answered) in bounded work, so a
 * liveness probe sent while ten of them run at once still answers promptly.
 */
const WORST_CASES: Array<{ name: string; arguments: Record<string, unknown> }> = [
  {
    name: 'expand_rrule',
    arguments: {
      rrule: 'FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;BYHOUR=23;BYMINUTE=59;BYSECOND=59',
      dtstart: '2026-03-01T00:00:00',
      timezone: 'UTC',
      count: 300,
    },
  },
  {
    name: 'expand_rrule',
    arguments: {
      rrule: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO',
      dtstart: '2026-03-01T09:00:00',
      timezone: 'America/New_York',
      count: 1000,
    },
  },
  {
    name: 'expand_rrule',
    arguments: {
      rrule: 'FREQ=MONTHLY;INTERVAL=3;BYMONTH=6,9,3,5,8;BYDAY=-4FR',
      dtstart: '2026-01-12T11:00:00',
      timezone: 'Europe/London',
      count: 1000,
    },
  },
  {
    name: 'expand_rrule',
    arguments: {
      rrule: 'FREQ=SECONDLY;INTERVAL=7;BYHOUR=23;BYMINUTE=59',
      dtstart: '2026-01-01T00:00:01',
      timezone: 'Pacific/Chatham',
      count: 1000,
    },
  },
  {
    name: 'expand_rrule',
    arguments: {
      rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
      dtstart: '2026-01-01T00:00:00',
      timezone: 'UTC',
    },
  },
  {
    name: 'expand_rrule',
    arguments: {
      rrule: 'FREQ=MINUTELY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,10,11,12,13,14,15,16',
      dtstart: '1970-01-01T00:00:00',
      timezone: 'Asia/Kathmandu',
      count: 200,
      after: '2026-02-20T00:00:00Z',
    },
  },
  {
    name: 'resolve_datetime',
    arguments: { expression: `the ${'second Wednesday of '.repeat(8)}last month at 2pm`.slice(0, 200) },
  },
  {
    name: 'resolve_datetime',
    arguments: { expression: 'in 2 hours and 30 minutes and 45 seconds'.repeat(4) },
  },
  {
    name: 'expand_rrule',
    arguments: {
      rrule: 'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO',
      dtstart: '2026-03-01T00:00:00',
      timezone: 'UTC',
      count: 1000,
    },
  },
  {
    name: 'expand_rrule',
    arguments: {
      rrule: 'FREQ=WEEKLY;BYMONTH=2;BYWEEKNO=9;BYDAY=MO',
      dtstart: '2026-03-01T00:00:00',
      timezone: 'UTC',
      count: 1000,
    },
  },
];

/** Milliseconds from sending GET /health to its complete answer. */
async function healthLatency(baseUrl: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/health`);
  await response.text();
  expect(response.status).toBe(200);
  return performance.now() - started;
}

describe('bounded work per call, over HTTP (meridian serve)', () => {
  let runtime: TestRuntime;
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let clients: Client[];

  beforeAll(async () => {
    runtime = await startTestRuntime({
      clock: fixedClock('2026-02-20T15:30:00Z'),
      defaultTimezone: 'America/New_York',
    });
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      handle: (request) => routeHttpRequest(request, runtime),
      logger: runtime.logger,
    });
    const { token } = await runtime.newKey('load');
    clients = await Promise.all(
      WORST_CASES.map(() =>
        connectHttpClient(`${server.url}/mcp`, undefined, { authorization: `Bearer ${token}` }),
      ),
    );
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
    await runtime.close();
  });

  it('answers /health within 200 ms while ten worst-case time and recurrence calls run at once', async () => {
    const idle = await healthLatency(server.url);
    const started = performance.now();
    const calls = WORST_CASES.map(async (call, i) => {
      const result = (await clients[i]!.callTool(call)) as CallToolResult;
      return { ms: performance.now() - started, code: result.isError ? errorOf(result).code : 'ok' };
    });
    // Probes while the calls are in flight: the first right behind them, then every 20 ms.
    const probes: number[] = [];
    let settled = false;
    const all = Promise.all(calls).finally(() => {
      settled = true;
    });
    while (!settled || probes.length === 0) {
      probes.push(await healthLatency(server.url));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const outcomes = await all;
    console.info(
      `/health idle ${idle.toFixed(0)} ms; under load: ${probes.map((ms) => ms.toFixed(0)).join(', ')} ms; ` +
        `calls finished at ${outcomes.map((o) => `${o.ms.toFixed(0)} ms (${o.code})`).join(', ')}`,
    );

    expect(outcomes.map((o) => o.code)).toEqual([
      'WORK_LIMIT_EXCEEDED',
      'WORK_LIMIT_EXCEEDED',
      'WORK_LIMIT_EXCEEDED',
      'WORK_LIMIT_EXCEEDED',
      'INVALID_RRULE',
      'ok',
      'UNRECOGNIZED_EXPRESSION',
      'UNRECOGNIZED_EXPRESSION',
      'WORK_LIMIT_EXCEEDED',
      'WORK_LIMIT_EXCEEDED',
    ]);
    expect(Math.max(...probes)).toBeLessThan(200);
  });
});
