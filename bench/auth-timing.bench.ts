/**
 * Whether a refused API key's timing tells a known key id from an unknown one (issue 18, finding
 * 8): the same wrong secret presented with the id of a real key and with an id no key has,
 * alternately, 200 times each — through AccessStore.authenticate on dynalite, and as POST /mcp
 * over HTTP (meridian serve's path). Reports both medians, their ratio and a Mann-Whitney z
 * (|z| > 2 is a difference an attacker can see with this many samples).
 */
import { routeHttpRequest } from '../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../lambdas/runtime/node-http-server.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { reportFigure } from './harness.js';

const SAMPLES = 200;
const WARMUP = 20;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Mann-Whitney U as a z score: > 0 when `a` tends to be slower than `b`. */
function mannWhitneyZ(a: number[], b: number[]): number {
  const ranked = [...a.map((value) => ({ value, a: true })), ...b.map((value) => ({ value, a: false }))].sort(
    (x, y) => x.value - y.value,
  );
  let rankSumA = 0;
  ranked.forEach((item, index) => {
    if (item.a) rankSumA += index + 1;
  });
  const u = rankSumA - (a.length * (a.length + 1)) / 2;
  const mean = (a.length * b.length) / 2;
  const sd = Math.sqrt((a.length * b.length * (a.length + b.length + 1)) / 12);
  return (u - mean) / sd;
}

/** Times `known` and `unknown` alternately, so that drift in machine load hits both alike. */
async function interleaved(known: () => Promise<unknown>, unknown: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await Promise.all([known(), unknown()]);
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < SAMPLES; i++) {
    for (const [side, fn] of i % 2 === 0
      ? ([
          ['known', known],
          ['unknown', unknown],
        ] as const)
      : ([
          ['unknown', unknown],
          ['known', known],
        ] as const)) {
      const started = performance.now();
      await fn();
      times[side].push(performance.now() - started);
    }
  }
  return times;
}

function report(title: string, times: { known: number[]; unknown: number[] }): void {
  const known = median(times.known);
  const unknown = median(times.unknown);
  reportFigure(
    title,
    `known id ${known.toFixed(3)} ms vs unknown id ${unknown.toFixed(3)} ms (median of ${SAMPLES} each): ratio ${(known / unknown).toFixed(3)}, Mann-Whitney z ${mannWhitneyZ(times.known, times.unknown).toFixed(1)}`,
  );
}

export async function run(): Promise<void> {
  const runtime = await startTestRuntime();
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    handle: (request) => routeHttpRequest(request, runtime),
    logger: runtime.logger,
  });
  try {
    const { token } = await runtime.newKey('timing');
    const wrongSecret = `${token.slice(0, -43)}${'x'.repeat(43)}`;
    const unknownId = `mrd_${'0'.repeat(12)}_${'x'.repeat(43)}`;
    report(
      'refused key, AccessStore.authenticate',
      await interleaved(
        () => runtime.access.authenticate(wrongSecret),
        () => runtime.access.authenticate(unknownId),
      ),
    );
    const post = (bearer: string) => async () => {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      await response.text();
      if (response.status !== 401) throw new Error(`expected 401, got ${response.status}`);
    };
    report('refused key, POST /mcp over HTTP', await interleaved(post(wrongSecret), post(unknownId)));
  } finally {
    await server.close();
    await runtime.close();
  }
}
