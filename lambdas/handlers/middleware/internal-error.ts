import type middy from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { Logger } from '../../core/ports/index.js';

/**
 * Last line of defence: an unexpected throw becomes a JSON 500 with no internals, and the
 * details go to the log only.
 */
export function internalErrorResponse(logger: Logger): middy.MiddlewareObj<unknown, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      logger.error('unhandled error', { error: request.error });
      request.response = {
        statusCode: 500,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32603, message: 'Internal error' },
          id: null,
        }),
        isBase64Encoded: false,
      };
    },
  };
}
