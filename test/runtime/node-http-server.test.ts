import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { MAX_BODY_BYTES } from '../../lambdas/mcp/http/body-limit.js';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { type RunningHttpServer, startHttpServer } from '../../lambdas/runtime/node-http-server.js';
import { describeMcpHttpTransport } from '../mcp/http-transport-suite.js';
import { exchangeRaw, openRawConnection, sendRaw, trickle } from '../support/raw-http.js';
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

/**
 * Records what nobody handled while a test ran. Inside vitest such an error fails the run but not
 * the test; in `meridian serve` it stops the process: each test here must leave none.
 */
function recordUnhandled() {
  const errors: unknown[] = [];
  const record = (error: unknown) => errors.push(error);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  return {
    errors,
    stop: () => {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    },
  };
}

/** The status and parsed JSON body of a raw HTTP/1.1 answer, chunked or not. */
function parseRaw(received: string): { status: number; body: unknown } {
  const split = received.indexOf('\r\n\r\n');
  const head = received.slice(0, split);
  let body = received.slice(split + 4);
  if (/^transfer-encoding: chunked$/im.test(head)) {
    let text = '';
    for (let size = Number.parseInt(body, 16); size > 0; size = Number.parseInt(body, 16)) {
      const start = body.indexOf('\r\n') + 2;
      text += body.slice(start, start + size);
      body = body.slice(start + size + 2);
    }
    body = text;
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]), body: JSON.parse(body) };
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

  let unhandled: ReturnType<typeof recordUnhandled>;
  beforeEach(() => {
    unhandled = recordUnhandled();
  });

  // Whatever the client did, the server is still there, and nothing it did went unhandled.
  afterEach(async () => {
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
    unhandled.stop();
    expect(unhandled.errors).toEqual([]);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
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
    const { socket, closed } = openRawConnection(server.url);
    socket.write(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${3_900_000}\r\n\r\n{"jsonrpc":`,
    );

    const received = await closed;

    expect(received).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('refuses a declared body over the limit with 413 without reading it', async () => {
    const { socket, closed } = openRawConnection(server.url);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`,
    );

    expect(await closed).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('closes a connection that trickles its headers past the headers timeout', async () => {
    const started = Date.now();
    const { socket, closed } = openRawConnection(server.url);
    trickle(socket, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${'X-Slow: y\r\n'.repeat(50)}\r\n`, 100);

    await closed;

    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('closes a connection that trickles its body past the request timeout', async () => {
    const started = Date.now();
    const { socket, closed } = openRawConnection(server.url);
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

  it('answers 413 to a chunked body over the limit from a valid key, then closes the connection', async () => {
    const { socket, closed } = openRawConnection(server.url);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n',
    );
    const chunk = 'a'.repeat(1 << 20);
    for (let index = 0; index <= MAX_BODY_BYTES >> 20; index += 1) socket.write(`100000\r\n${chunk}\r\n`);

    expect(await closed).toMatch(/^HTTP\/1\.1 413 /);
  });

  it.each([
    ['an empty Host', 'GET /health HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n'],
    ['no Host', 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n'],
    ['no Host (HTTP/1.0)', 'GET /health HTTP/1.0\r\n\r\n'],
  ])('refuses a request with %s with 400, saying what to send', async (_, text) => {
    const { status, body } = parseRaw(await exchangeRaw(server.url, text));

    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { message: expect.stringContaining('Missing Host header: send') } });
  });

  it('answers a request target that is no URL with 400, not as a server fault', async () => {
    const { status, body } = parseRaw(
      await exchangeRaw(server.url, 'GET //% HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );

    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: -32600 } });
  });
});

describe('node:http server when the handler fails', () => {
  let server: RunningHttpServer;
  const logged: unknown[] = [];

  beforeAll(async () => {
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      handle: (request) => {
        const path = new URL(request.url).pathname;
        if (path === '/throws') throw new Error('secret internals');
        if (path === '/broken-body') {
          const body = new ReadableStream({ pull: (controller) => controller.error(new Error('broken')) });
          return Promise.resolve(new Response(body, { status: 200 }));
        }
        if (path === '/late')
          return new Promise((resolvePromise) => setTimeout(resolvePromise, 200, Response.json({})));
        return Promise.resolve(Response.json({ status: 'ok' }));
      },
      logger: { info: () => undefined, warn: () => undefined, error: (message) => logged.push(message) },
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  let unhandled: ReturnType<typeof recordUnhandled>;
  beforeEach(() => {
    logged.length = 0;
    unhandled = recordUnhandled();
  });

  afterEach(async () => {
    unhandled.stop();
    expect(unhandled.errors).toEqual([]);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('answers 500 without internals when the handler throws, and logs it', async () => {
    const response = await sendRaw(server.url, 'GET', '/throws');

    expect(response.status).toBe(500);
    expect(response.body).not.toContain('secret internals');
    expect(logged).toEqual(['http request failed']);
  });

  it('answers 500 when the body of the handler’s answer fails as it is read', async () => {
    const response = await sendRaw(server.url, 'GET', '/broken-body');

    expect(response.status).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ error: 'Internal error' });
  });

  it('drops an answer whose client reset the connection meanwhile, logging nothing', async () => {
    const connection = openRawConnection(server.url);
    connection.socket.write('GET /late HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    connection.socket.resetAndDestroy();
    await connection.closed;

    await new Promise((resolvePromise) => setTimeout(resolvePromise, 300));

    expect(logged).toEqual([]);
  });
});
