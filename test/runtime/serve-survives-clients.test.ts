import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../lambdas/mcp/http/body-limit.js';
import { meridian, startServe } from '../support/cli.js';
import { exchangeRaw, openRawConnection } from '../support/raw-http.js';

const TOKEN = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/;

/** The headers of an MCP POST from a client holding `token`, as raw HTTP/1.1 lines. */
function mcpHeadLines(token: string, framing: string): string {
  return (
    'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    `Accept: application/json, text/event-stream\r\nAuthorization: Bearer ${token}\r\n${framing}\r\n\r\n`
  );
}

/** POSTs `size` bytes to /mcp with chunked framing (no Content-Length), as finding 1's probe did. */
function postChunked(baseUrl: string, token: string, size: number): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const request = httpRequest(
      `${baseUrl}/mcp`,
      {
        method: 'POST',
        agent: false,
        headers: {
          'transfer-encoding': 'chunked',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
      },
      (response) => {
        response.resume();
        resolvePromise(response.statusCode ?? 0);
      },
    );
    // The server closes the connection on the rest of the body it refused: not this test's concern.
    request.on('error', reject);
    request.end(Buffer.alloc(size, 97));
  });
}

// The real `meridian serve` in a process of its own, so that a crash shows: the process exits and
// /health is refused. Each case is something a client holding a valid key can send.
describe('meridian serve goes on serving whatever a client sends', { timeout: 60_000 }, () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServe>>;
  let baseUrl: string;
  let token: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-abuse-'));
    server = await startServe(['--data-dir', dataDir], { MERIDIAN_SYNC_INTERVAL_MINUTES: '0' });
    baseUrl = new URL(server.url).origin;
    const created = await meridian(['keys', 'create', '--label', 'abuser', '--data-dir', dataDir]);
    token = TOKEN.exec(created.stdout)![0];
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Lets the server finish with the connection, then asks it for /health. */
  async function expectStillServing(): Promise<void> {
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
  }

  it('answers 413 to a chunked body over the limit from a valid key', async () => {
    const status = await postChunked(baseUrl, token, MAX_BODY_BYTES + (1 << 20));

    expect(status).toBe(413);
    await expectStillServing();
  });

  it('goes on after a client closes its connection mid-body', async () => {
    const connection = openRawConnection(baseUrl);
    connection.socket.write(`${mcpHeadLines(token, 'Content-Length: 1000')}{"jsonrpc":"2.0",`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
    connection.socket.end();

    await connection.closed;

    await expectStillServing();
  });

  it('goes on after a client resets its connection mid-body', async () => {
    const connection = openRawConnection(baseUrl);
    const chunk = 'a'.repeat(64 * 1024);
    connection.socket.write(`${mcpHeadLines(token, 'Transfer-Encoding: chunked')}10000\r\n${chunk}\r\n`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
    connection.socket.resetAndDestroy();

    await connection.closed;

    await expectStillServing();
  });

  it('goes on after a client resets its connection before its answer', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const connection = openRawConnection(baseUrl);
    connection.socket.write(`${mcpHeadLines(token, `Content-Length: ${ping.length}`)}${ping}`);
    connection.socket.resetAndDestroy();

    await connection.closed;

    await expectStillServing();
  });

  it('goes on after a client resets its connection mid-answer', async () => {
    // Every tool's schema: an answer larger than one write, so the reset lands while it is sent.
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const connection = openRawConnection(baseUrl);
    connection.socket.write(
      mcpHeadLines(token, `Content-Length: ${list.length}`).replace('/mcp', '/mcp?toolsets=all') + list,
    );
    await connection.firstBytes;
    connection.socket.resetAndDestroy();

    expect(await connection.closed).toMatch(/^HTTP\/1\.1 200 /);
    await expectStillServing();
  });

  it('answers a request Node cannot parse with 400', async () => {
    const received = await exchangeRaw(baseUrl, 'NOT HTTP AT ALL\r\n\r\n');

    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    await expectStillServing();
  });
});
