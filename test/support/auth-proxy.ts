import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy on 127.0.0.1 that adds `Authorization` and forwards everything else as sent —
 * Host and Origin included, so DNS-rebinding checks still see what the client sent. For clients
 * that cannot send a header, like the MCP conformance suite.
 */
export async function startAuthProxy(target: string, authorization: string) {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
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
