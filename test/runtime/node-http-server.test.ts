import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import {
  MAX_BODY_BYTES,
  type RunningHttpServer,
  startHttpServer,
} from '../../lambdas/runtime/node-http-server.js';
import { describeMcpHttpTransport } from '../mcp/http-transport-suite.js';
import { sendRaw } from '../support/raw-http.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const ALLOWED_ORIGIN = 'https://app.example.com';

describeMcpHttpTransport('node:http server (meridian serve)', async () => {
  const runtime = await startTestRuntime({
    clock: fixedClock('2026-02-20T15:30:00Z'),
    defaultTimezone: 'America/New_York',
  });
  let errors = 0;
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    handle: (request) =>
      routeHttpRequest(request, runtime, { allowedOrigins: [ALLOWED_ORIGIN], loopback: true }),
    logger: {
      info: () => undefined,
      warn: () => undefined,
      error: () => {
        errors += 1;
      },
    },
  });
  return {
    baseUrl: server.url,
    fetch: (input, init) => fetch(input, init),
    allowedOrigin: ALLOWED_ORIGIN,
    send: (method, path, init) => sendRaw(server.url, method, path, init),
    loggedErrors: () => errors,
    newKey: (options) => runtime.newKey('test', options),
    revokeKey: (keyId) => runtime.access.revokeKey(keyId).then(() => undefined),
    close: async () => {
      await server.close();
      await runtime.close();
    },
  };
});

/** Opens a raw connection; `closed` resolves with what the server wrote once it closes the socket. */
function openSocket(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolvePromise) => socket.on('close', () => resolvePromise(received)));
  return { socket, closed, received: () => received };
}

/** Writes one byte of `text` every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || index >= text.length) return clearInterval(timer);
    socket.write(text[index]!);
    index += 1;
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

describe('node:http server edges (meridian serve)', () => {
  let runtime: TestRuntime;
  let server: RunningHttpServer;
  let token: string;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    ({ token } = await runtime.newKey());
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      handle: (request) => routeHttpRequest(request, runtime, { allowedOrigins: [], loopback: true }),
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      timeouts: { headersMs: 500, requestMs: 1_000 },
    });
  });

  afterAll(async () => {
    await server?.close();
    await runtime?.close();
  });

  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const mcpHeaders = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: '',
  };

  it.each(['evil.example.com', '127.0.0.1.evil.example.com:8787'])(
    'refuses the foreign Host %s on loopback with 403 (DNS rebinding)',
    async (host) => {
      const response = await sendRaw(server.url, 'POST', '/mcp', {
        headers: { ...mcpHeaders, authorization: `Bearer ${token}`, host },
        body: ping,
      });

      expect(response.status).toBe(403);
      expect(response.body).toContain(`Host ${host} is not allowed`);
    },
  );

  it('answers a loopback Origin and Host on loopback', async () => {
    const response = await sendRaw(server.url, 'POST', '/mcp', {
      headers: {
        ...mcpHeaders,
        authorization: `Bearer ${token}`,
        host: 'localhost:5173',
        origin: 'http://localhost:5173',
      },
      body: ping,
    });

    expect(response.status).toBe(200);
  });

  it('answers 401 from the headers without waiting for the body, then closes the connection', async () => {
    const { socket, closed } = openSocket(server.port);
    socket.write(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${3_900_000}\r\n\r\n{"jsonrpc":`,
    );

    const received = await closed;

    expect(received).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('refuses a declared body over the limit with 413 without reading it', async () => {
    const { socket, closed } = openSocket(server.port);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`,
    );

    expect(await closed).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('closes a connection that trickles its headers past the headers timeout', async () => {
    const started = Date.now();
    const { socket, closed } = openSocket(server.port);
    trickle(socket, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${'X-Slow: y\r\n'.repeat(50)}\r\n`, 100);

    await closed;

    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('closes a connection that trickles its body past the request timeout', async () => {
    const started = Date.now();
    const { socket, closed } = openSocket(server.port);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Content-Length: ${ping.length}\r\n\r\n`,
    );
    trickle(socket, ping, 100);

    await closed;

    expect(Date.now() - started).toBeLessThan(5_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
