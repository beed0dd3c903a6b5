import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { retry } from '../../core/retry.js';

/**
 * Node error codes of a request that failed for want of a server: nobody listens on the socket
 * (ECONNREFUSED, ENOENT), or the server went away with the connection (ECONNRESET, EPIPE).
 */
const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'EAGAIN']);

export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && CONNECTION_FAILURES.has(code);
}

/**
 * Sends a request again after `reconnect()` when it failed to reach the server, at most
 * `attempts` times in all. For a store served by one of several processes: when that process
 * exits, `reconnect` waits until another serves it (taking it over if need be), and the call goes
 * through instead of failing. Sits next to the HTTP handler (the `deserialize` step), so every
 * attempt of the SDK's own retry strategy gets it.
 *
 * @example
 * retryAfterReconnect(client, () => takeover.ensureServed());
 */
export function retryAfterReconnect(
  client: DynamoDBClient,
  reconnect: () => Promise<void>,
  attempts = 5,
): void {
  client.middlewareStack.add(
    (next) => (args) =>
      // The pause between attempts is the reconnect itself: no timer, the store is back when it resolves.
      retry(() => next(args), { maxAttempts: attempts, isRetryable: isConnectionFailure, sleep: reconnect }),
    { step: 'deserialize', priority: 'low', name: 'retryAfterReconnect' },
  );
}
