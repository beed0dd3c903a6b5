import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Logger } from '../core/ports/index.js';
import { refuseUnrepresentableMethod } from '../mcp/http/route-http-request.js';

/** Requests larger than this are refused with 413 before they are buffered further. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * How long a client may take to send its headers, and its whole request. Node's defaults (60 s
 * and 300 s, checked every 30 s) let a client that trickles a byte every few seconds hold a
 * connection for minutes; MCP requests are small.
 */
export const DEFAULT_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000 };

export interface RunningHttpServer {
  /** Base URL, e.g. http://127.0.0.1:8787 */
  url: string;
  port: number;
  close(): Promise<void>;
}

class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

const tooLargeMessage = `Request body exceeds ${MAX_BODY_BYTES} bytes.`;

/** The body as a stream that fails past MAX_BODY_BYTES: read only if the handler asks for it. */
function limitedBody(request: IncomingMessage): ReadableStream<Uint8Array> {
  let size = 0;
  const limited = Readable.from(
    (async function* () {
      for await (const chunk of request) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(tooLargeMessage);
        yield chunk as Buffer;
      }
    })(),
  );
  return Readable.toWeb(limited) as ReadableStream<Uint8Array>;
}

function toWebRequest(request: IncomingMessage, baseUrl: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = request.method ?? 'GET';
  const url = new URL(request.url ?? '/', baseUrl);
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers, signal });
  return new Request(url, {
    method,
    headers,
    signal,
    body: limitedBody(request),
    duplex: 'half',
  } as RequestInit);
}

async function writeWebResponse(
  response: Response,
  target: ServerResponse,
  incoming: IncomingMessage,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // A body left unread (refused from the headers) is not drained; the connection closes instead.
  if (!incoming.complete) headers.connection = 'close';
  target.writeHead(response.status, headers);
  target.end(Buffer.from(await response.arrayBuffer()));
}

function declaredTooLarge(incoming: IncomingMessage): boolean {
  return Number(incoming.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
}

async function respond(
  incoming: IncomingMessage,
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
  signal: AbortSignal,
): Promise<Response> {
  const unrepresentable = refuseUnrepresentableMethod(
    incoming.method ?? 'GET',
    new URL(incoming.url ?? '/', baseUrl).pathname,
  );
  if (unrepresentable) return unrepresentable;
  if (declaredTooLarge(incoming)) return Response.json({ error: tooLargeMessage }, { status: 413 });
  return handle(toWebRequest(incoming, baseUrl, signal));
}

/**
 * Serves a Web-standard `(Request) => Response` function over node:http — the same request path
 * the Lambda handler uses, so both are tested by one suite. The body is streamed, not buffered:
 * a handler that refuses a request from its headers (no API key) never reads it, and the
 * connection is then closed rather than drained.
 */
export async function startHttpServer(options: {
  host: string;
  port: number;
  handle: (request: Request) => Promise<Response>;
  logger: Logger;
  timeouts?: { headersMs: number; requestMs: number };
}): Promise<RunningHttpServer> {
  let baseUrl = '';
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // How often Node checks the two timeouts above (its default is 30 s).
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    },
    (incoming, outgoing) => {
      // Fires when the client goes away before its answer is written: the work for it stops.
      const clientGone = new AbortController();
      outgoing.once('close', () => {
        if (!outgoing.writableFinished) clientGone.abort();
      });
      void (async () => {
        try {
          const response = await respond(incoming, baseUrl, options.handle, clientGone.signal);
          await writeWebResponse(response, outgoing, incoming);
        } catch (error) {
          const tooLarge = error instanceof BodyTooLargeError;
          if (!tooLarge) options.logger.error('http request failed', { error });
          if (!outgoing.headersSent)
            outgoing.writeHead(tooLarge ? 413 : 500, { 'content-type': 'application/json' });
          outgoing.end(JSON.stringify({ error: tooLarge ? (error as Error).message : 'Internal error' }));
        }
        // Not drained: a client could otherwise make us read a large body it knows we refused.
        if (!incoming.complete) {
          if (outgoing.writableFinished) incoming.socket.destroy();
          else outgoing.once('finish', () => incoming.socket.destroy());
        }
      })();
    },
  );
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolvePromise());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  baseUrl = `http://${host}:${port}`;
  return {
    url: baseUrl,
    port,
    close: () =>
      new Promise<void>((resolvePromise, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolvePromise()));
      }),
  };
}
