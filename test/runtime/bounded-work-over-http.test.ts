import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';
import { probeHealthDuring } from '../support/health-prober.js';
import { type CallToolResult, connectHttpClient, errorOf } from '../support/mcp-client.js';

/**
 * Issue 8, finding 4: one expand_rrule call took 12 s and held /health for 7.4 s. With work
 * budgets, worst-case time and recurrence calls are refused (or answered) in bounded work, and
 * `serve` runs that work on a thread of its own (runtime/computation-thread.ts), so a liveness
 * probe sent while ten of them run at once answers within the 200 ms.
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

/** Milliseconds from sending GET /health to its complete answer, from this process. */
async function healthLatency(mcpUrl: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(new URL('/health', mcpUrl));
  await response.text();
  expect(response.status).toBe(200);
  return performance.now() - started;
}

/** Fires `calls` at once while another process probes /health every 20 ms until they all finish. */
async function underLoad(mcpUrl: string, clients: Client[], calls: typeof WORST_CASES) {
  const started = performance.now();
  const { latencies, result } = await probeHealthDuring(mcpUrl, () =>
    Promise.all(
      calls.map(async (call, i) => {
        const result = (await clients[i]!.callTool(call)) as CallToolResult;
        return { ms: performance.now() - started, code: result.isError ? errorOf(result).code : 'ok' };
      }),
    ),
  );
  return { probes: latencies, outcomes: result };
}

/** The value `fraction` of `values` are at or below (nearest rank): 0.5 the median, 0.9 the p90. */
const percentile = (values: number[], fraction: number) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(fraction * values.length) - 1)]!;

const ms = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');

// The real `meridian serve` in its own process, so the probe's latency is the server's alone.
describe('bounded work per call, over HTTP (meridian serve)', { timeout: 120_000 }, () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServe>>;
  let clients: Client[];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-load-'));
    server = await startServe(['--data-dir', dataDir]);
    const created = await meridian(['keys', 'create', '--label', 'load', '--data-dir', dataDir]);
    const token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(created.stdout)![0];
    clients = await Promise.all(
      WORST_CASES.map(() => connectHttpClient(server.url, undefined, { authorization: `Bearer ${token}` })),
    );
  });

  afterAll(async () => {
    await Promise.all((clients ?? []).map((client) => client.close()));
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps /health answering while ten worst-case time and recurrence calls run at once', async () => {
    const idle = await healthLatency(server.url);
    // Also warms what a process compiles on first use (the parsers, zod's validators), so that the
    // worst-case round measures bounded work, not a cold start.
    const trivial = await underLoad(
      server.url,
      clients,
      WORST_CASES.map(() => ({ name: 'resolve_datetime', arguments: { expression: 'now' } })),
    );
    const worst = await underLoad(server.url, clients, WORST_CASES);
    const figures = (probes: number[]) =>
      `${ms(probes)} ms (median ${percentile(probes, 0.5).toFixed(0)}, p90 ${percentile(probes, 0.9).toFixed(0)}, ` +
      `max ${Math.max(...probes).toFixed(0)})`;
    console.info(
      `/health idle ${idle.toFixed(0)} ms; during ten trivial calls ${figures(trivial.probes)}; ` +
        `calls done by ${ms(trivial.outcomes.map((o) => o.ms))} ms; during ten worst-case calls ${figures(worst.probes)}; ` +
        `calls done by ${ms(worst.outcomes.map((o) => o.ms))} ms`,
    );

    expect(worst.outcomes.map((o) => o.code)).toEqual([
      'WORK_LIMIT_EXCEEDED',
      'WORK_LIMIT_EXCEEDED',
      'WORK_LIMIT_EXCEEDED',
      'WORK_LIMIT_EXCEEDED',
      'INVALID_RRULE',
      'ok',
      'UNRECOGNIZED_EXPRESSION',
      'UNRECOGNIZED_EXPRESSION',
      'WORK_LIMIT_EXCEEDED',
      'INVALID_RRULE',
    ]);
    // The target: /health within 200 ms. Before the computation thread, a probe that arrived
    // while a call's bounded job ran waited for it: 40–75 ms of CPU, but up to 1,035 ms of wall time
    // with two CPU burners on the 2 cores (load average 5–16); this test then failed 5 runs of 6
    // (p90 66–926 ms, slowest 1,351 ms). Off the loop, a probe waits only for serve's own handling
    // of the ten requests (3–7 ms of CPU each: a server per request, the API key read from the
    // embedded store, JSON and TOON), stretched by the same load: over 20 runs, medians 5–53 ms,
    // p90s 35–223 ms (one run above 200), slowest 92–393 ms. The max stays at the bound that
    // separates bounded from unbounded work (one unbounded call held /health for 7.4 s).
    expect(percentile(worst.probes, 0.5)).toBeLessThanOrEqual(200);
    expect(percentile(worst.probes, 0.9)).toBeLessThanOrEqual(200);
    expect(Math.max(...worst.probes)).toBeLessThan(1000);
  });
});
