import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult } from 'aws-lambda';

export type ApiGatewayEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

function isV2(event: ApiGatewayEvent): event is APIGatewayProxyEventV2 {
  return (event as APIGatewayProxyEventV2).version === '2.0';
}

/** The HTTP method and path of either event version. */
export function methodAndPath(event: ApiGatewayEvent): { method: string; path: string } {
  return isV2(event)
    ? { method: event.requestContext.http.method, path: event.rawPath }
    : { method: event.httpMethod, path: event.path };
}

/**
 * Turns an API Gateway proxy event (REST API v1 or HTTP API v2) into a Web `Request`, so the
 * Lambda handler and the local server share one request path.
 */
export function requestFromApiGatewayEvent(event: ApiGatewayEvent): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers.set(name, value);
  }
  const { method, path } = methodAndPath(event);
  let query: string;
  if (isV2(event)) {
    query = event.rawQueryString ? `?${event.rawQueryString}` : '';
    if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
  } else {
    const params = new URLSearchParams();
    for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
      for (const value of values ?? []) params.append(name, value);
    }
    query = params.size > 0 ? `?${params.toString()}` : '';
  }
  const host = headers.get('host') ?? 'lambda.invalid';
  const body =
    event.body === null || event.body === undefined || method === 'GET' || method === 'HEAD'
      ? undefined
      : event.isBase64Encoded
        ? new Uint8Array(Buffer.from(event.body, 'base64'))
        : event.body;
  return new Request(`https://${host}${path}${query}`, { method, headers, body });
}

/** Turns a Web `Response` back into an API Gateway proxy result (text bodies; MCP is JSON). */
export async function apiGatewayResultFromResponse(response: Response): Promise<APIGatewayProxyResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { statusCode: response.status, headers, body: await response.text(), isBase64Encoded: false };
}
