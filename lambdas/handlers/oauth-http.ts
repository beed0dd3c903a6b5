// First: stack traces name the TypeScript sources, each map read only when an error needs it.
import './lazy-source-maps.js';
// Then: zod parses without generating code (why: zod-jitless.ts).
import './zod-jitless.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyResult, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import serverless from 'serverless-http';
import type { DomainError } from '../core/errors.js';
import { createAwsOauth } from '../runtime/aws-oauth.js';
import { awsSchemaCheck } from '../runtime/aws-schema-version.js';
import { processEnvironment } from '../runtime/environment.js';
import type { ApiGatewayEvent } from './api-gateway-request.js';
import { internalErrorResponse } from './middleware/internal-error.js';
import { requireSchemaVersion } from './middleware/schema-version.js';
import { fromPowertools } from './powertools-logger.js';

type OauthResult = APIGatewayProxyResult | APIGatewayProxyStructuredResultV2;

// Parsed once, at cold start: a missing MERIDIAN_PUBLIC_URL fails it, named in the error.
const environment = processEnvironment();
const powertools = new Logger({ serviceName: environment.serviceName ?? 'meridian-oauth' });
const logger = fromPowertools(powertools);
const oauth = createAwsOauth(environment, logger);
const schemaReady = awsSchemaCheck(environment, logger);

function sendJson(res: ServerResponse, status: number, body: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** The authorization server on node:http's objects; a fault answers 500 with nothing of its cause. */
async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    if (!(await oauth.handle(req, res)))
      sendJson(res, 404, {
        error: 'not_found',
        error_description: 'No such path on the authorization server.',
      });
  } catch (error) {
    logger.error('oauth request failed', { error });
    if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: 'Try again.' });
    else res.end();
  }
}

/**
 * oidc-provider is a Koa app on node:http's request and response, not a Web `Request`:
 * serverless-http (a maintained bridge made for this) turns a REST (v1) or HTTP API (v2) event
 * into those objects and the answer back — every Set-Cookie kept (v1 `multiValueHeaders`, v2
 * `cookies`), base64 bodies decoded, the caller's address as the socket's (the registration limit).
 */
const bridge = serverless(answer, { binary: false });

function unavailable(error: DomainError): APIGatewayProxyResult {
  return {
    statusCode: 503,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: 'temporarily_unavailable', error_description: error.message }),
    isBase64Encoded: false,
  };
}

/**
 * API Gateway → Meridian's authorization server (ADR 0026): discovery, registration, the sign-in
 * and consent pages, token and revocation, at `/oauth/*` and the two well-known paths.
 */
export const handler = middy<ApiGatewayEvent, OauthResult>()
  .use(injectLambdaContext(powertools))
  .use(internalErrorResponse(logger, { error: 'server_error', error_description: 'Try again.' }))
  .use(requireSchemaVersion<OauthResult>(schemaReady, logger, unavailable))
  .handler(async (event: ApiGatewayEvent, context: Context) => (await bridge(event, context)) as OauthResult);
