import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLimiter } from '../../../lambdas/core/limits/request-limiter.js';
import type { Clock } from '../../../lambdas/core/ports/index.js';
import { RATE_LIMITED_JSON_RPC_CODE } from '../../../lambdas/mcp/http/rate-limit-refusal.js';
import { passThroughStore } from '../../support/pass-through-store.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

let now = Date.parse('2026-11-27T09:00:00Z');
const clock: Clock = { now: () => new Date(now) };

/** One JSON-RPC tools/call POST, as a client without the SDK sends it. */
async function callOverHttp(served: ServedRuntime, token: string, id: number, name: string, args: object) {
  const response = await fetch(served.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.json(),
  };
}

describe('per-key rate limits over HTTP', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime({ clock });
    const limits = new RequestLimiter({
      store: runtime.store,
      clock,
      defaults: {
        requests: { capacity: 4, periodSeconds: 20 },
        expensive: { capacity: 1, periodSeconds: 60 },
      },
    });
    served = await serveRuntime({ ...runtime, limits });
  });
  afterAll(async () => served?.close());

  const calendarsOf = async (keyId: string) =>
    (await runtime.access.grantsOf(keyId)).filter((grant) => grant.resource.kind === 'calendar');

  it('answers a burst over budget with 429 and Retry-After, and writes nothing for it', async () => {
    const { token, keyId } = await runtime.newKey('burst');
    const answers = [];
    for (let i = 0; i < 7; i++)
      answers.push(await callOverHttp(served, token, i, 'create_calendar', { summary: `c${i}` }));

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429, 429]);
    const refused = answers[4]!;
    // One token returns every 5 s (4 per 20 s).
    expect(refused.retryAfter).toBe('5');
    expect(refused.body).toMatchObject({
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: RATE_LIMITED_JSON_RPC_CODE,
        message: expect.stringContaining('Rate limit "requests"'),
        data: { code: 'RATE_LIMITED', limit: 'requests', retryAfterSeconds: 5 },
      },
    });
    expect(answers.slice(0, 4).every((a) => a.body.result && !a.body.result.isError)).toBe(true);
    // create_calendar grants its key the new calendar: four grants, four calendars, no fifth.
    expect(await calendarsOf(keyId)).toHaveLength(4);
  });

  it('refills the budget as time passes', async () => {
    const { token } = await runtime.newKey('refill');
    for (let i = 0; i < 4; i++) await callOverHttp(served, token, i, 'create_calendar', { summary: `r${i}` });
    expect((await callOverHttp(served, token, 9, 'create_calendar', { summary: 'late' })).status).toBe(429);
    now += 5_000;
    expect((await callOverHttp(served, token, 10, 'create_calendar', { summary: 'later' })).status).toBe(200);
    expect((await callOverHttp(served, token, 11, 'create_calendar', { summary: 'again' })).status).toBe(429);
  });

  it('never lets two keys share a budget', async () => {
    const first = await runtime.newKey('first');
    const second = await runtime.newKey('second');
    for (let i = 0; i < 5; i++) await callOverHttp(served, first.token, i, 'list_calendars', {});
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await callOverHttp(served, second.token, i, 'list_calendars', {})).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('gives the expensive tools a stricter budget of their own', async () => {
    const { token } = await runtime.newKey('expensive');
    const first = await callOverHttp(served, token, 1, 'get_timesheet', {
      start: '2026-11-23',
      end: '2026-11-27',
    });
    const second = await callOverHttp(served, token, 2, 'get_timesheet', {
      start: '2026-11-23',
      end: '2026-11-27',
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBe('60');
    expect(second.body.error.data).toMatchObject({ limit: 'expensive', retryAfterSeconds: 60 });
    // The requests budget still has room for cheap calls.
    expect((await callOverHttp(served, token, 3, 'list_calendars', {})).status).toBe(200);
  });
});

describe("a key's budget, read beside the key's lookup", () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  const limiterReads: string[] = [];
  const limiterWrites: string[] = [];

  beforeAll(async () => {
    runtime = await startTestRuntime({ clock });
    // The limiter's own table traffic, by item: what a request read and wrote of the budgets.
    const store = passThroughStore(runtime.store, {
      get: (key, options) => {
        limiterReads.push(key.pk);
        return runtime.store.get(key, options);
      },
      put: (item, options) => {
        limiterWrites.push(item.pk);
        return runtime.store.put(item, options);
      },
    });
    const defaults = { requests: { capacity: 50, periodSeconds: 60 }, expensive: 'off' as const };
    served = await serveRuntime({ ...runtime, limits: new RequestLimiter({ store, clock, defaults }) });
  });
  afterAll(async () => served?.close());

  it('is read before the key is checked, so a first request waits for no budget round trip of its own', async () => {
    // A token shaped like a key whose id is unknown: refused, yet its budget was read (only read).
    const unknown = `mrd_${'q'.repeat(12)}_${'s'.repeat(43)}`;
    expect((await callOverHttp(served, unknown, 1, 'list_calendars', {})).status).toBe(401);
    expect(limiterReads).toEqual([`RATE#key:${'q'.repeat(12)}`]);
    expect(limiterWrites).toEqual([]);

    // A real key's first request: its budget read once (ahead), then its spend written.
    const { token, keyId } = await runtime.newKey('agent');
    limiterReads.length = 0;
    expect((await callOverHttp(served, token, 2, 'list_calendars', {})).status).toBe(200);
    expect(limiterReads).toEqual([`RATE#key:${keyId}`]);
    expect(limiterWrites).toEqual([`RATE#key:${keyId}`]);
    // Known to this instance now: its next request reads nothing ahead.
    limiterReads.length = 0;
    expect((await callOverHttp(served, token, 3, 'list_calendars', {})).status).toBe(200);
    expect(limiterReads).toEqual([]);
  });
});
