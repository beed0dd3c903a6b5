import { startReverseProxy } from './reverse-proxy.js';

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
  let operations: string[] = [];
  const proxy = await startReverseProxy(target, {
    onRequest: (incoming) =>
      operations.push(String(incoming.headers['x-amz-target'] ?? '').replace(/^DynamoDB_\d+\./, '')),
  });
  return {
    endpoint: proxy.url,
    /** The operations forwarded since the last take, in arrival order; the log starts afresh. */
    take(): string[] {
      const taken = operations;
      operations = [];
      return taken;
    },
    close: proxy.close,
  };
}
