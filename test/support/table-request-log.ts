import type { IncomingMessage } from 'node:http';
import { startReverseProxy } from './reverse-proxy.js';

/** One request the log saw: its operation, the table key it names, and when it came and went. */
interface LoggedRequest {
  operation: string;
  /** The partition key of a GetItem/PutItem/DeleteItem, or the first value of a Query. */
  key: string | undefined;
  arrivedAt: number;
  answeredAt: number | undefined;
}

/**
 * A reverse proxy in front of a local DynamoDB (dynalite, DynamoDB Local) that notes the
 * operation of every request it forwards (`GetItem`, `Query`, …, from `X-Amz-Target`): the table
 * round trips a function makes, seen from outside it, for tests that pin how many it needs.
 * `answerDelayMs` holds each answer back, so that `rounds()` can tell requests sent together
 * from requests sent one after another.
 *
 * @example
 * const log = await startTableRequestLog(dynalite.endpoint);
 * process.env.AWS_ENDPOINT_URL_DYNAMODB = log.endpoint;
 * // … invoke …
 * expect(log.take()).toEqual(['GetItem', 'PutItem']);
 */
export async function startTableRequestLog(target: string, options: { answerDelayMs?: number } = {}) {
  let requests: LoggedRequest[] = [];
  const pending = new WeakMap<IncomingMessage, LoggedRequest>();
  const proxy = await startReverseProxy(target, {
    ...(options.answerDelayMs ? { answerDelayMs: options.answerDelayMs } : {}),
    onRequest: (incoming) => {
      const logged: LoggedRequest = {
        operation: String(incoming.headers['x-amz-target'] ?? '').replace(/^DynamoDB_\d+\./, ''),
        key: undefined,
        arrivedAt: performance.now(),
        answeredAt: undefined,
      };
      requests.push(logged);
      pending.set(incoming, logged);
      const body: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => body.push(chunk));
      incoming.on('end', () => {
        logged.key = keyOf(Buffer.concat(body).toString('utf8'));
      });
    },
    onAnswered: (incoming) => {
      const logged = pending.get(incoming);
      if (logged) logged.answeredAt = performance.now();
    },
  });
  return {
    endpoint: proxy.url,
    /** The operations forwarded since the last take, in arrival order; the log starts afresh. */
    take(): string[] {
      const taken = requests.map((r) => r.operation);
      requests = [];
      return taken;
    },
    /**
     * The requests since the last take, in round trips: a request is in the round after the
     * latest round one of whose answers came back before it was sent (round 1 if none had).
     * Each round lists `operation key`, sorted; with `naming`, only the rounds in which some
     * request's key contains it. The log starts afresh.
     */
    rounds(naming?: string): string[][] {
      const taken = requests;
      requests = [];
      const roundOf = new Map<LoggedRequest, number>();
      for (const request of taken) {
        const before = taken.filter((r) => r.answeredAt !== undefined && r.answeredAt <= request.arrivedAt);
        roundOf.set(request, 1 + Math.max(0, ...before.map((r) => roundOf.get(r) ?? 0)));
      }
      const count = Math.max(0, ...roundOf.values());
      const rounds = Array.from({ length: count }, (_, i) =>
        taken
          .filter((request) => roundOf.get(request) === i + 1)
          .map((request) => `${request.operation} ${request.key ?? ''}`.trim())
          .sort(),
      );
      return naming === undefined ? rounds : rounds.filter((round) => round.some((r) => r.includes(naming)));
    },
    close: proxy.close,
  };
}

/** The partition key a request names: `Key.pk`, `Item.pk`, or a Query's first value. */
function keyOf(body: string): string | undefined {
  try {
    const request = JSON.parse(body) as {
      Key?: { pk?: { S?: string } };
      Item?: { pk?: { S?: string } };
      ExpressionAttributeValues?: Record<string, { S?: string }>;
    };
    return (
      request.Key?.pk?.S ??
      request.Item?.pk?.S ??
      Object.values(request.ExpressionAttributeValues ?? {})[0]?.S
    );
  } catch {
    return undefined;
  }
}
