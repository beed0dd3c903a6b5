import { describe, expect, it } from 'vitest';
import { traceContextOf, traceContextOfBody } from '../../../lambdas/mcp/trace/trace-context.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';

function request(meta: Record<string, unknown>) {
  return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', _meta: meta } };
}

describe('traceContextOf', () => {
  it('reads a version-00 traceparent and its tracestate', () => {
    expect(
      traceContextOf(request({ traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: 'a=1, b@c=x y' })),
    ).toEqual({
      traceparent: `00-${TRACE}-${PARENT}-01`,
      traceId: TRACE,
      tracestate: 'a=1,b@c=x y',
    });
  });

  it('keeps the four known fields of a later version and drops what follows', () => {
    expect(traceContextOf(request({ traceparent: `01-${TRACE}-${PARENT}-01-later` }))?.traceparent).toBe(
      `01-${TRACE}-${PARENT}-01`,
    );
  });

  it.each([
    ['version ff', `ff-${TRACE}-${PARENT}-01`],
    ['version 00 with a fifth field', `00-${TRACE}-${PARENT}-01-x`],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT}-01`],
    ['an all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${PARENT}-01`],
    ['a line break', `00-${TRACE}-${PARENT}-01\n`],
    ['a number', 42],
  ])('ignores a traceparent with %s', (_, traceparent) => {
    expect(traceContextOf(request({ traceparent, tracestate: 'a=1' }))).toBeUndefined();
  });

  it.each([
    ['a key in upper case', 'Vendor=1'],
    ['a value with an equals sign', 'a=b=c'],
    ['a control character', 'a=\u0001'],
    ['33 members', Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')],
  ])('drops a tracestate with %s and keeps the traceparent', (_, tracestate) => {
    const context = traceContextOf(request({ traceparent: `00-${TRACE}-${PARENT}-01`, tracestate }));
    expect(context).toEqual({ traceparent: `00-${TRACE}-${PARENT}-01`, traceId: TRACE });
  });

  it('takes the first traced request of a batch', () => {
    const body = [request({}), request({ traceparent: `00-${TRACE}-${PARENT}-00` })];
    expect(traceContextOfBody(body)?.traceId).toBe(TRACE);
  });
});
