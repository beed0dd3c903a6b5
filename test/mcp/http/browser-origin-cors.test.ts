import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHttpRequest } from '../../../lambdas/mcp/http/route-http-request.js';
import { type RunningHttpServer, startHttpServer } from '../../../lambdas/runtime/node-http-server.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/*
 * `--allowed-origins` / MERIDIAN_ALLOWED_ORIGINS name the browser origins that may call /mcp
 * (README), and ADR 0025 routes `OPTIONS /mcp` to the function so that it answers preflights: a
 * page on an allowed origin gets past the preflight (Authorization and JSON make its POST
 * non-simple) and may read the answers, the OAuth challenge included. Others get nothing of it.
 */

const ALLOWED = 'https://app.example.com';

let runtime: TestRuntime;
let server: RunningHttpServer;
let token: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    logger: runtime.logger,
    handle: (request) => routeHttpRequest(request, runtime, { allowedOrigins: [ALLOWED], loopback: true }),
  });
  ({ token } = await runtime.newKey('browser'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await runtime?.close();
});

describe('a browser page on an allowed origin', () => {
  it('gets its CORS preflight for POST /mcp answered', async () => {
    const preflight = await fetch(`${server.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });

    expect({
      ok: preflight.ok,
      allowOrigin: preflight.headers.get('access-control-allow-origin'),
    }).toEqual({ ok: true, allowOrigin: ALLOWED });
  });

  it('may read the answer to its POST /mcp', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        origin: ALLOWED,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('may read the OAuth challenge of a 401', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { origin: ALLOWED, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });

    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  });
});

describe('other callers', () => {
  it('a page on a foreign origin gets 403 for its preflight, with no CORS', async () => {
    const preflight = await fetch(`${server.url}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
    });

    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a client that sends no Origin gets no CORS headers, and OPTIONS stays 405', async () => {
    const options = await fetch(`${server.url}/mcp`, { method: 'OPTIONS' });
    const post = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });

    expect(options.status).toBe(405);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });
});
