import type middy from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { type DomainError, isDomainError } from '../../core/errors.js';
import type { Logger } from '../../core/ports/index.js';
import type { SchemaCheck } from '../../core/storage/schema-version.js';

/**
 * Runs the table's schema check (runtime/aws-schema-version.ts) before the handler. A table a
 * newer Meridian wrote is logged once per invocation and, given `refuse`, answered with it (the
 * MCP function's JSON-RPC error); otherwise the invocation fails with the error's message, which
 * names both versions and what to do.
 *
 * @example
 * middy().use(requireSchemaVersion(awsSchemaCheck(store, logger), logger)).handler(…);
 */
export function requireSchemaVersion<Result>(
  schemaReady: () => Promise<SchemaCheck>,
  logger: Logger,
  refuse?: (error: DomainError) => Result,
): middy.MiddlewareObj<unknown, Result> {
  return {
    before: async () => {
      try {
        await schemaReady();
      } catch (error) {
        if (!isDomainError(error) || error.code !== 'UNSUPPORTED_FORMAT') throw error;
        logger.error('the table was written by a newer Meridian: not serving it', { ...error.details });
        if (refuse) return refuse(error);
        throw error;
      }
      return undefined;
    },
  };
}

/** The MCP function's answer to every request while its table is newer than its code: 503, a JSON-RPC error naming both versions. */
export function unsupportedTableResponse(error: DomainError): APIGatewayProxyResult {
  return {
    statusCode: 503,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: error.message, data: { code: error.code, ...error.details } },
      id: null,
    }),
    isBase64Encoded: false,
  };
}
