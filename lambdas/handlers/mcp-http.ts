import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { routeHttpRequest } from '../mcp/http/route-http-request.js';
import { createAwsHttpDeps } from '../runtime/aws-http.js';
import {
  type ApiGatewayEvent,
  apiGatewayResultFromResponse,
  requestFromApiGatewayEvent,
} from './api-gateway-request.js';
import { internalErrorResponse } from './middleware/internal-error.js';
import { fromPowertools } from './powertools-logger.js';

const powertools = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'meridian' });
const logger = fromPowertools(powertools);
const deps = createAwsHttpDeps(process.env, logger);

/**
 * API Gateway → MCP. The event becomes a Web `Request` and goes through the same router as
 * `meridian serve`; the `Response` goes back as a proxy result.
 */
export const handler = middy<ApiGatewayEvent, APIGatewayProxyResult>()
  .use(injectLambdaContext(powertools))
  .use(internalErrorResponse(logger))
  .handler(async (event) =>
    apiGatewayResultFromResponse(await routeHttpRequest(requestFromApiGatewayEvent(event), deps)),
  );
