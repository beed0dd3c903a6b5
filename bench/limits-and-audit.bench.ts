/**
 * What the per-key limit check and the audit log add to a warm write tool call: create_event on a
 * native calendar, sent as an HTTP request through routeHttpRequest (authentication, the SDK, the
 * tool, its store writes), with both guards on (one conditional put for the limit; a pending
 * record before the tool and its completion after) against the same call with both off, on one
 * dynalite, in one run. Target: ≤ 1.10×. On dynalite each store operation costs this process CPU,
 * so writes run beside the call do not hide; the second line compares against the floor the
 * guarantees imply (ADR 0014).
 */

import { routeHttpRequest } from '../lambdas/mcp/http/route-http-request.js';
import { requestGuards } from '../lambdas/runtime/compose-guards.js';
import { parseEnvironment } from '../lambdas/runtime/environment.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { compare, reportFigure, reportRatio } from './harness.js';

export async function run(): Promise<void> {
  const runtime = await startTestRuntime({ projectFolders: null });
  const { token } = await runtime.newKey('bench');
  const guarded = {
    ...runtime,
    // Budgets no run reaches, so every call is admitted (and still spends its put).
    ...requestGuards(
      runtime,
      parseEnvironment({
        MERIDIAN_RATE_LIMIT: '1000000/1s',
        MERIDIAN_EXPENSIVE_RATE_LIMIT: '1000/1s',
      }),
    ),
  };
  const bare = {
    ...runtime,
    ...requestGuards(
      runtime,
      parseEnvironment({
        MERIDIAN_RATE_LIMIT: 'off',
        MERIDIAN_EXPENSIVE_RATE_LIMIT: 'off',
        MERIDIAN_AUDIT: 'off',
      }),
    ),
  };
  if (!guarded.limits || !guarded.hooks || bare.limits || bare.hooks)
    throw new Error('the guards are not as the bench assumes');

  let id = 0;
  const call = (deps: typeof bare, name: string, args: object) =>
    routeHttpRequest(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: ++id,
          method: 'tools/call',
          params: { name, arguments: args },
        }),
      }),
      deps,
    ).then(async (response) => {
      const text = await response.text();
      if (response.status !== 200 || text.includes('"isError":true'))
        throw new Error(`${name} failed: ${text}`);
      return text;
    });
  const made = JSON.parse(await call(bare, 'create_calendar', { summary: 'Bench' })) as {
    result: { structuredContent: { calendar_id: string } };
  };
  const calendarId = made.result.structuredContent.calendar_id;
  let minute = 0;
  const createEvent = (deps: typeof bare) => () => {
    minute += 1;
    const start = new Date(Date.UTC(2027, 0, 1) + minute * 60_000).toISOString();
    const end = new Date(Date.UTC(2027, 0, 1) + minute * 60_000 + 30 * 60_000).toISOString();
    return call(deps, 'create_event', { calendar_id: calendarId, summary: 'Sync', start, end });
  };

  // A warm process: JIT, dynalite and both code paths settled before anything is timed.
  for (let i = 0; i < 200; i++) {
    await createEvent(guarded)();
    await createEvent(bare)();
  }
  const result = await compare(
    { name: 'create_event, limit + audit on', fn: createEvent(guarded) },
    { name: 'create_event, both off', fn: createEvent(bare) },
    { rounds: 10, runs: 400, warmup: 10 },
  );
  reportRatio('a warm write call with the limit check and the audit append vs both off, median', result, {
    kind: 'slowdown',
    value: 1.1,
  });
  reportFigure(
    'limit + audit added per write call, median',
    `${(result.candidate.medianMs - result.baseline.medianMs).toFixed(3)} ms of ${result.baseline.medianMs.toFixed(3)} ms`,
  );
  // What the guarantees cannot go below: the same call with both off, plus the writes they imply
  // (the limit's put, the record before the tool, its completion after), as bare conditional puts.
  let n = 0;
  const impliedWrites = async () => {
    n += 1;
    await runtime.store.put(
      { pk: 'BENCH_RATE', sk: String(n), version: n },
      { condition: { op: 'not_exists' } },
    );
    await runtime.store.put(
      { pk: 'BENCH_AUDIT', sk: String(n), status: 'pending' },
      { condition: { op: 'not_exists' } },
    );
    await createEvent(bare)();
    await runtime.store.put(
      { pk: 'BENCH_AUDIT', sk: String(n), status: 'completed' },
      { condition: { op: 'eq', attribute: 'status', value: 'pending' } },
    );
  };
  const floor = await compare(
    { name: 'create_event, limit + audit on', fn: createEvent(guarded) },
    { name: 'create_event + three bare conditional puts', fn: impliedWrites },
    { rounds: 10, runs: 400, warmup: 10 },
  );
  reportRatio('the same, vs the call plus the three writes the guarantees imply, median', floor, {
    kind: 'slowdown',
    value: 1.1,
  });
  await runtime.close();
}
