import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { FetchLike } from './mcp-client.js';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** A Lambda context as the runtime passes it; middy and Powertools read these fields. */
export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'meridian-mcp',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:meridian-mcp',
    memoryLimitInMB: '1024',
    awsRequestId: crypto.randomUUID(),
    logGroupName: '/aws/lambda/meridian-mcp',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** What API Gateway's REST proxy delivers to the handler for one HTTP request. */
export function restProxyEvent(request: {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | null;
}): APIGatewayProxyEvent {
  const { url, headers, body } = request;
  const query: Record<string, string[]> = {};
  url.searchParams.forEach((value, name) => {
    query[name] = [...(query[name] ?? []), value];
  });
  return {
    httpMethod: request.method,
    path: url.pathname,
    resource: url.pathname,
    headers,
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: Object.keys(query).length > 0 ? query : null,
    pathParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: { requestId: crypto.randomUUID(), stage: 'prod' },
  } as unknown as APIGatewayProxyEvent;
}

/**
 * A fetch that goes through API Gateway's REST proxy shape into the Lambda handler and back, so
 * the SDK's real Client can talk to the handler without a network.
 */
export function lambdaFetch(handler: Handler): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.text();
    const event = restProxyEvent({ method: request.method, url: new URL(request.url), headers, body });
    const result = await handler(event, lambdaContext());
    const status = result.statusCode;
    const nullBody = status === 202 || status === 204 || status === 304;
    return new Response(nullBody ? null : result.body, {
      status,
      headers: result.headers as Record<string, string>,
    });
  };
}
