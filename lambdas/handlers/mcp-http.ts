// First: stack traces name the TypeScript sources, each map read only when an error needs it.
import './lazy-source-maps.js';
// Then: zod parses without generating code (why: zod-jitless.ts).
import './zod-jitless.js';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { routeHttpRequest } from '../mcp/http/route-http-request.js';
import { createAwsHttpDeps } from '../runtime/aws-http.js';
import { awsSchemaCheck } from '../runtime/aws-schema-version.js';
import { processEnvironment } from '../runtime/environment.js';
import {
  type ApiGatewayEvent,
  apiGatewayResultFromResponse,
  requestFromApiGatewayEvent,
} from './api-gateway-request.js';
import { internalErrorResponse } from './middleware/internal-error.js';
import { requireSchemaVersion, unsupportedTableResponse } from './middleware/schema-version.js';
import { fromPowertools } from './powertools-logger.js';
import { powertoolsMetrics } from './powertools-metrics.js';

// Parsed once, at cold start: a bad variable fails it, named in the error.
const environment = processEnvironment();
const serviceName = environment.serviceName ?? 'meridian';
const powertools = new Logger({ serviceName });
const logger = fromPowertools(powertools);
const deps = createAwsHttpDeps(environment, logger, powertoolsMetrics(serviceName));
const schemaReady = awsSchemaCheck(environment, logger);
// Behind API Gateway the Host is the API's own; only browser origins need configuring.
const origins = { allowedOrigins: environment.allowedOrigins, loopback: false };

async function respond(event: ApiGatewayEvent): Promise<Response> {
  const read = requestFromApiGatewayEvent(event);
  return 'refused' in read ? read.refused : routeHttpRequest(read.request, deps, origins);
}

/**
 * API Gateway → MCP. The event becomes a Web `Request` and goes through the same router as
 * `meridian serve`; the `Response` goes back as a proxy result.
 */
export const handler = middy<ApiGatewayEvent, APIGatewayProxyResult>()
  .use(injectLambdaContext(powertools))
  .use(internalErrorResponse(logger))
  .use(requireSchemaVersion(schemaReady, logger, unsupportedTableResponse))
  .handler(async (event) => apiGatewayResultFromResponse(await respond(event)));
