import { createServer, type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy on 127.0.0.1 that forwards every request to `target` as sent — Host and
 * Origin included — after `onRequest` has seen it, with `headers` changing what is forwarded.
 * For tests that watch or amend a client's requests from outside it.
 *
 * @example
 * const proxy = await startReverseProxy(server.url, { headers: (h) => ({ ...h, authorization }) });
 */
export async function startReverseProxy(
  target: string,
  options: {
    onRequest?: (incoming: IncomingMessage) => void;
    /** Called once the answer to `incoming` has been sent in full. */
    onAnswered?: (incoming: IncomingMessage) => void;
    headers?: (headers: IncomingHttpHeaders) => IncomingHttpHeaders;
    /** Holds every answer this long before passing it on: a slower network, made to order. */
    answerDelayMs?: number;
  } = {},
) {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    options.onRequest?.(incoming);
    outgoing.on('finish', () => options.onAnswered?.(incoming));
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: options.headers ? options.headers(incoming.headers) : incoming.headers,
      },
      (answer) => {
        const passOn = () => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        };
        if (options.answerDelayMs) setTimeout(passOn, options.answerDelayMs);
        else passOn();
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.closeAllConnections();
        server.close(() => resolvePromise());
      }),
  };
}
