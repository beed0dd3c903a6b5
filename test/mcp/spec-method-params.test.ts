import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { type RunningHttpServer, startHttpServer } from '../../lambdas/runtime/node-http-server.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/*
 * Every method but tools/call is served by a setRequestHandler handler (create-mcp-server.ts,
 * protocol-capabilities.ts), and the SDK checks its params against the method's schema first. A
 * mismatch (a number where the spec says string) is the caller's to fix: -32602 naming the
 * field, in both eras — never -32603 (params-refusing-server.ts; the SDK's own answer is -32603).
 */

let runtime: TestRuntime;
let server: RunningHttpServer;
let token: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    logger: runtime.logger,
    handle: (request) => routeHttpRequest(request, runtime),
  });
  ({ token } = await runtime.newKey('params'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await runtime?.close();
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function legacy(method: string, params: unknown) {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await response.json()) as { error?: { code: number; message: string } }).error;
}

async function modern(method: string, params: Record<string, unknown>, name?: string) {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }),
  });
  return ((await response.json()) as { error?: { code: number; message: string } }).error;
}

describe('params of the wrong type, which the caller can fix', () => {
  it.each([
    [
      'initialize with a numeric protocolVersion',
      () =>
        legacy('initialize', {
          protocolVersion: 5,
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        }),
    ],
    ['tools/list with a numeric cursor (2025)', () => legacy('tools/list', { cursor: 5 })],
    ['resources/read without a uri (2025)', () => legacy('resources/read', {})],
    [
      'prompts/get with a numeric argument (2025)',
      () => legacy('prompts/get', { name: 'weekly-timesheet', arguments: { week: 5 } }),
    ],
    [
      'completion/complete without its argument (2025)',
      () => legacy('completion/complete', { ref: { type: 'ref/prompt', name: 'write-rule' } }),
    ],
    ['logging/setLevel with an unknown level (2025)', () => legacy('logging/setLevel', { level: 'loud' })],
    ['tools/list with a numeric cursor (2026-07-28)', () => modern('tools/list', { cursor: 5 })],
    ['resources/read with a numeric uri (2026-07-28)', () => modern('resources/read', { uri: 5 }, '5')],
  ])('are answered -32602 Invalid params, not -32603: %s', async (_, send) => {
    expect((await send())?.code).toBe(-32602);
  });

  it('names the field and what is wrong with it', async () => {
    const error = await legacy('tools/list', { cursor: 5 });
    expect(error?.message).toMatch(
      /^Invalid params for tools\/list: cursor: .*expected string, received number/,
    );
  });
});
