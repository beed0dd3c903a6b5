import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { finished } from 'node:stream';
import type { Logger } from '../core/ports/index.js';
import { bodyTooLarge, MAX_BODY_BYTES } from '../mcp/http/body-limit.js';
import { json, jsonRpcError } from '../mcp/http/http-responses.js';
import { refuseUnrepresentableMethod } from '../mcp/http/route-http-request.js';
import { BodyTooLargeError, ClientGoneError, limitedBody } from './node-request-body.js';

/**
 * How long a client may take to send its headers, and its whole request. Node's defaults (60 s
 * and 300 s, checked every 30 s) let a client that trickles a byte every few seconds hold a
 * connection for minutes; MCP requests are small.
 */
export const DEFAULT_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000 };

/**
 * Answers a request on node:http's own objects before the Web `Request` path (true), or leaves
 * it (false): for the embedded authorization server, which is a Koa app (oidc-provider).
 */
export type NodeIntercept = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<boolean>;

export interface RunningHttpServer {
  /** Base URL, e.g. http://127.0.0.1:8787 */
  url: string;
  port: number;
  close(): Promise<void>;
}

const MISSING_HOST_MESSAGE =
  'Missing Host header: send the host and port you reach the server at, e.g. "Host: 127.0.0.1:8787".';

/** A request that no Web `Request` can represent (its target is no URL): 400, not a server fault. */
class UnrepresentableRequestError extends Error {
  override readonly name = 'UnrepresentableRequestError';
}

function toWebRequest(request: IncomingMessage, url: URL, signal: AbortSignal): Request {
  const headers = new Headers();
  try {
    for (const [name, value] of Object.entries(request.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, value);
    }
  } catch (error) {
    throw new UnrepresentableRequestError('Bad request: a header value is not valid HTTP.', { cause: error });
  }
  const method = request.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers, signal });
  const body = limitedBody(request, MAX_BODY_BYTES);
  return new Request(url, { method, headers, signal, body, duplex: 'half' } as RequestInit);
}

function declaredTooLarge(incoming: IncomingMessage): boolean {
  return Number(incoming.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
}

function requestUrl(incoming: IncomingMessage, baseUrl: string): URL {
  try {
    return new URL(incoming.url ?? '/', baseUrl);
  } catch (error) {
    throw new UnrepresentableRequestError('Bad request: the request target is not a URL path.', {
      cause: error,
    });
  }
}

async function respond(
  incoming: IncomingMessage,
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
  signal: AbortSignal,
): Promise<Response> {
  // HTTP/1.1 requires a Host; the origin policy checks it against the listen address.
  if (!incoming.headers.host?.trim()) return jsonRpcError(400, -32000, MISSING_HOST_MESSAGE);
  const url = requestUrl(incoming, baseUrl);
  const unrepresentable = refuseUnrepresentableMethod(incoming.method ?? 'GET', url.pathname);
  if (unrepresentable) return unrepresentable;
  if (declaredTooLarge(incoming)) return bodyTooLarge();
  return handle(toWebRequest(incoming, url, signal));
}

/** A response read whole, ready to write; its body is read first, so that a body that fails is a 500. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

async function answerOf(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * The answer to one request, or undefined when there is nobody left to answer. Whatever the
 * handler or the body throws ends here: a client error is answered as one, a fault is logged.
 */
async function answer(
  incoming: IncomingMessage,
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
  logger: Logger,
  signal: AbortSignal,
): Promise<Answer | undefined> {
  try {
    return await answerOf(await respond(incoming, baseUrl, handle, signal));
  } catch (error) {
    if (error instanceof ClientGoneError) return undefined;
    if (error instanceof BodyTooLargeError) return answerOf(bodyTooLarge());
    if (error instanceof UnrepresentableRequestError)
      return answerOf(jsonRpcError(400, -32600, error.message));
    logger.error('http request failed', { error });
    return answerOf(json(500, { error: 'Internal error' }));
  }
}

async function serveRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  baseUrl: string,
  options: { handle: (request: Request) => Promise<Response>; logger: Logger; intercept?: NodeIntercept },
): Promise<void> {
  if (options.intercept && (await options.intercept(incoming, outgoing))) return;
  // Node sets incoming.socket to null once the response is done: keep it to close the connection.
  const socket: Socket | null = incoming.socket;
  // An 'error' on the response (a write after the client reset) has nobody to go to; with no
  // listener Node would throw it and stop the process.
  outgoing.on('error', () => undefined);
  // Fires when the client goes away before its answer is written: the work for it stops.
  const clientGone = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) clientGone.abort();
  });
  const reply = await answer(incoming, baseUrl, options.handle, options.logger, clientGone.signal);
  if (reply && !outgoing.destroyed) {
    // A body left unread (refused from the headers, too large) is not drained; the connection closes.
    if (!incoming.complete) reply.headers.connection = 'close';
    outgoing.writeHead(reply.status, reply.headers);
    outgoing.end(reply.body);
  }
  // Not drained: a client could otherwise make us read a large body it knows we refused.
  if (!incoming.complete) finished(outgoing, () => socket?.destroy());
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
  /** @default - none: every request takes the Web `Request` path */
  intercept?: NodeIntercept;
}): Promise<RunningHttpServer> {
  let baseUrl = '';
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node would refuse a missing Host with a bare 400; respond() refuses it, and an empty one, in JSON.
      requireHostHeader: false,
      // How often Node checks the two timeouts above (its default is 30 s).
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    },
    (incoming, outgoing) => {
      const socket = incoming.socket;
      serveRequest(incoming, outgoing, baseUrl, options).catch((error: unknown) => {
        // Only writing the answer is left to throw here (writeHead on a response Node refuses):
        // the request is lost, the process is not.
        options.logger.error('http response failed', { error });
        socket?.destroy();
      });
    },
  );
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolvePromise());
  });
  // Once listening, an 'error' is a failed accept (EMFILE under a flood of connections): Node
  // retries on the next connection, and without a listener the process would exit instead.
  server.on('error', (error) => options.logger.error('http server error', { error }));
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
