import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../mcp/deps.js';

/** Requests larger than this are refused with 413 before they are buffered further. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface RunningHttpServer {
  /** Base URL, e.g. http://127.0.0.1:8787 */
  url: string;
  port: number;
  close(): Promise<void>;
}

class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`Request body exceeds ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function toWebRequest(request: IncomingMessage, baseUrl: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = request.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await readBody(request));
  return new Request(new URL(request.url ?? '/', baseUrl), { method, headers, body });
}

async function writeWebResponse(response: Response, target: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  target.writeHead(response.status, headers);
  target.end(Buffer.from(await response.arrayBuffer()));
}

/**
 * Serves a Web-standard `(Request) => Response` function over node:http — the same request path
 * the Lambda handler uses, so both are tested by one suite.
 */
export async function startHttpServer(options: {
  host: string;
  port: number;
  handle: (request: Request) => Promise<Response>;
  logger: Logger;
}): Promise<RunningHttpServer> {
  let baseUrl = '';
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      try {
        const request = await toWebRequest(incoming, baseUrl);
        await writeWebResponse(await options.handle(request), outgoing);
      } catch (error) {
        const tooLarge = error instanceof BodyTooLargeError;
        if (!tooLarge) options.logger.error('http request failed', { error });
        if (!outgoing.headersSent)
          outgoing.writeHead(tooLarge ? 413 : 500, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify({ error: tooLarge ? (error as Error).message : 'Internal error' }));
      }
    })();
  });
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
