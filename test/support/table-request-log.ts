import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy in front of a local DynamoDB (dynalite, DynamoDB Local) that notes the
 * operation of every request it forwards (`GetItem`, `Query`, …, from `X-Amz-Target`): the table
 * round trips a function makes, seen from outside it, for tests that pin how many it needs.
 *
 * @example
 * const log = await startTableRequestLog(dynalite.endpoint);
 * process.env.AWS_ENDPOINT_URL_DYNAMODB = log.endpoint;
 * // … invoke …
 * expect(log.take()).toEqual(['GetItem', 'PutItem']);
 */
export async function startTableRequestLog(target: string) {
  const upstream = new URL(target);
  let operations: string[] = [];
  const server = createServer((incoming, outgoing) => {
    operations.push(String(incoming.headers['x-amz-target'] ?? '').replace(/^DynamoDB_\d+\./, ''));
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
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
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The operations forwarded since the last take, in arrival order; the log starts afresh. */
    take(): string[] {
      const taken = operations;
      operations = [];
      return taken;
    },
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.closeAllConnections();
        server.close(() => resolvePromise());
      }),
  };
}
