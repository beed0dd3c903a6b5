import type middy from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { type DomainError, isDomainError } from '../../core/errors.js';
import type { Logger } from '../../core/ports/index.js';
import type { SchemaCheck } from '../../core/storage/schema-version.js';

/**
 * Refuses the function's answer when its table was written by a newer Meridian. The check
 * (runtime/aws-schema-version.ts) runs alongside the handler rather than in front of it: the
 * function's table store holds every write until the check has passed and releases no read
 * before it (runtime/schema-gated-store.ts), so nothing is written to such a table; this then
 * replaces whatever the handler made of the refusal. The refusal is logged once per invocation
 * and, given `refuse`, answered with it (the MCP function's JSON-RPC error); otherwise the
 * invocation fails with the error's message, which names both versions and what to do.
 *
 * A check that fails otherwise (the table out of reach) fails the invocation as before when the
 * handler succeeded; when the handler failed too, its own error stands.
 *
 * @example
 * middy().use(requireSchemaVersion(awsSchemaCheck(environment, logger), logger)).handler(…);
 */
export function requireSchemaVersion<Result>(
  schemaReady: () => SchemaCheck | Promise<SchemaCheck>,
  logger: Logger,
  refuse?: (error: DomainError) => Result,
): middy.MiddlewareObj<unknown, Result> {
  /** The check's refusal, if the table is newer; any other failure of the check is thrown. */
  const refusal = async (): Promise<DomainError | undefined> => {
    try {
      await schemaReady();
      return undefined;
    } catch (error) {
      if (!isDomainError(error) || error.code !== 'UNSUPPORTED_FORMAT') throw error;
      return error;
    }
  };
  const refused = (error: DomainError) => {
    logger.error('the table was written by a newer Meridian: not serving it', { ...error.details });
    return refuse?.(error);
  };
  return {
    // After and onError run in reverse order of `use`: this runs before the internal-error
    // response and, by answering, keeps it from turning the refusal into a 500.
    after: async () => {
      const error = await refusal();
      if (error === undefined) return undefined;
      // Without `refuse` the error goes on to onError below, which logs it and fails the invocation.
      if (!refuse) throw error;
      return refused(error);
    },
    onError: async (request) => {
      const error = await refusal().catch(() => undefined);
      if (error === undefined) return undefined;
      if (refuse) return refused(error);
      refused(error);
      request.error = error;
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
