import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

/** A response read whole: what `HttpTarget.send` returns. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request over node:http, for what fetch will not send: TRACE and TRACK, a chosen Host
 * header, a Content-Length the body never reaches.
 */
export function sendRaw(
  baseUrl: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolvePromise, reject) => {
    const outgoing = httpRequest(
      new URL(path, baseUrl),
      { method, headers: init.headers, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (typeof value === 'string') headers[name] = value;
          }
          resolvePromise({
            status: incoming.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString(),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

/** A raw TCP connection to an HTTP server, for what no HTTP client sends (or how it breaks off). */
export interface RawConnection {
  socket: Socket;
  /** Everything the server wrote so far. */
  received(): string;
  /** Resolves with everything the server wrote, once the connection is closed (by either side). */
  closed: Promise<string>;
  /** Resolves once the server has written at least one byte, or the connection closed first. */
  firstBytes: Promise<void>;
}

/**
 * Opens a raw connection to `baseUrl`'s host and port; write requests on `socket` byte for byte.
 *
 * @example
 * const connection = openRawConnection(server.url);
 * connection.socket.write('GET /health HTTP/1.0\r\n\r\n');
 * expect(await connection.closed).toMatch(/^HTTP\/1\.1 400 /);
 */
export function openRawConnection(baseUrl: string): RawConnection {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  let received = '';
  let gotBytes: () => void = () => undefined;
  const firstBytes = new Promise<void>((resolvePromise) => {
    gotBytes = resolvePromise;
  });
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
    gotBytes();
  });
  // A reset is what some tests send or provoke; `closed` reports what arrived before it.
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolvePromise) =>
    socket.on('close', () => {
      gotBytes();
      resolvePromise(received);
    }),
  );
  return { socket, received: () => received, closed, firstBytes };
}

/** Writes `text` on a new raw connection and answers everything the server wrote before it closed. */
export function exchangeRaw(baseUrl: string, text: string): Promise<string> {
  const connection = openRawConnection(baseUrl);
  connection.socket.write(text);
  return connection.closed;
}

/** Writes one byte of `text` every `everyMs` until all is sent or the socket closes. */
export function trickle(socket: Socket, text: string, everyMs: number): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || index >= text.length) return clearInterval(timer);
    socket.write(text[index]!);
    index += 1;
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}
