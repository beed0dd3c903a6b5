import type middy from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { Logger } from '../../core/ports/index.js';

/** JSON-RPC's answer to a fault: what the MCP function says. */
const JSON_RPC_INTERNAL_ERROR = {
  jsonrpc: '2.0',
  error: { code: -32603, message: 'Internal error' },
  id: null,
};

/**
 * Last line of defence: an unexpected throw (the table out of reach at the schema check, say)
 * becomes a JSON 500 with no internals — `body` in the function's own terms — and the details go
 * to the log only. Without it the invocation fails, and API Gateway answers 502 or a bare 500.
 */
export function internalErrorResponse(
  logger: Logger,
  body: object = JSON_RPC_INTERNAL_ERROR,
): middy.MiddlewareObj<unknown, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      logger.error('unhandled error', { error: request.error });
      request.response = {
        statusCode: 500,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        isBase64Encoded: false,
      };
    },
  };
}
