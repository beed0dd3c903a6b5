import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult } from 'aws-lambda';
import { bodyTooLarge, MAX_BODY_BYTES } from '../mcp/http/body-limit.js';
import { jsonRpcError } from '../mcp/http/http-responses.js';
import { refuseUnrepresentableMethod } from '../mcp/http/route-http-request.js';

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

/** The Web `Request` an event stands for, or the answer that refuses it. */
export type RequestOrRefusal = { request: Request } | { refused: Response };

const UNREADABLE_MESSAGE =
  'Bad request: a header value or the URL is not valid HTTP. Send header values as Latin-1 text without line breaks.';

function bodyOf(event: ApiGatewayEvent, method: string): string | Uint8Array<ArrayBuffer> | undefined {
  if (event.body === null || event.body === undefined || method === 'GET' || method === 'HEAD')
    return undefined;
  return event.isBase64Encoded ? new Uint8Array(Buffer.from(event.body, 'base64')) : event.body;
}

function byteLength(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength;
}

function toWebRequest(
  event: ApiGatewayEvent,
  method: string,
  path: string,
  body: BodyInit | undefined,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers.set(name, value);
  }
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
  return new Request(`https://${host}${path}${query}`, { method, headers, body });
}

/**
 * Turns an API Gateway proxy event (REST API v1 or HTTP API v2) into a Web `Request`, so the
 * Lambda handler and the local server share one request path — or into the answer that refuses
 * it, as `meridian serve` would: 405 for a method fetch cannot carry, 413 for a body over
 * MAX_BODY_BYTES (decoded), 400 for a header value or Host that no `Request` can hold.
 *
 * @example
 * const read = requestFromApiGatewayEvent(event);
 * const response = 'refused' in read ? read.refused : await routeHttpRequest(read.request, deps);
 */
export function requestFromApiGatewayEvent(event: ApiGatewayEvent): RequestOrRefusal {
  const { method, path } = methodAndPath(event);
  const unrepresentable = refuseUnrepresentableMethod(method, path);
  if (unrepresentable) return { refused: unrepresentable };
  const body = bodyOf(event, method);
  if (body !== undefined && byteLength(body) > MAX_BODY_BYTES) return { refused: bodyTooLarge() };
  try {
    return { request: toWebRequest(event, method, path, body) };
  } catch (error) {
    // Headers and Request refuse what is not HTTP with a TypeError: the caller's to fix.
    if (!(error instanceof TypeError)) throw error;
    return { refused: jsonRpcError(400, -32600, UNREADABLE_MESSAGE) };
  }
}

/** Turns a Web `Response` back into an API Gateway proxy result (text bodies; MCP is JSON). */
export async function apiGatewayResultFromResponse(response: Response): Promise<APIGatewayProxyResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { statusCode: response.status, headers, body: await response.text(), isBase64Encoded: false };
}
