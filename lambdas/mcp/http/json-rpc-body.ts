import { jsonRpcError } from './http-responses.js';

/**
 * Messages one JSON-RPC batch may carry. The calls of a request share one work allowance
 * (call-limits.ts), so a batch cannot multiply heavy work; this bounds what it costs to parse,
 * authorise and answer the messages themselves.
 */
export const MAX_BATCH_MESSAGES = 20;

/** The POST body as JSON, or the JSON-RPC error response that refuses it. */
export type JsonRpcBody = { message: unknown } | { refused: Response };

function requestIdOf(message: unknown): string | number | undefined {
  if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message))
    return undefined;
  const { id } = message as { id: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Reads and checks what the SDK transport does not: JSON-RPC 2.0 calls an empty batch an
 * invalid request, a batch may hold at most MAX_BATCH_MESSAGES, and requests that share an id in one batch cannot be told apart in the
 * answer (the transport would run all of them and answer one).
 *
 * @example
 * const body = await readJsonRpcBody(request);
 * if ('refused' in body) return body.refused;
 */
export async function readJsonRpcBody(request: Request): Promise<JsonRpcBody> {
  let message: unknown;
  try {
    message = JSON.parse(await request.text());
  } catch (error) {
    // A body the HTTP layer refused to read (too large, too slow) is not a parse error.
    if (!(error instanceof SyntaxError)) throw error;
    return { refused: jsonRpcError(400, -32700, 'Parse error: the body is not valid JSON.') };
  }
  if (!Array.isArray(message)) return { message };
  if (message.length === 0) {
    return {
      refused: jsonRpcError(
        400,
        -32600,
        'Invalid Request: the batch is empty. Send one JSON-RPC message, or an array of at least one.',
      ),
    };
  }
  if (message.length > MAX_BATCH_MESSAGES) {
    return {
      refused: jsonRpcError(
        400,
        -32600,
        `Invalid Request: the batch has ${message.length} messages; at most ${MAX_BATCH_MESSAGES} are accepted in one request. Send the rest in further requests.`,
      ),
    };
  }
  const seen = new Set<string | number>();
  for (const item of message) {
    const id = requestIdOf(item);
    if (id === undefined) continue;
    if (seen.has(id)) {
      return {
        refused: jsonRpcError(
          400,
          -32600,
          `Invalid Request: id ${JSON.stringify(id)} is used by more than one request in this batch. Give each request its own id.`,
        ),
      };
    }
    seen.add(id);
  }
  return { message };
}
