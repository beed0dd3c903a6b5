import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Context } from 'aws-lambda';
import { lambdaContext, restProxyEvent } from './lambda-fetch.js';

/** A Lambda handler as API Gateway invokes it (either payload version). */
export type ProxyHandler = (event: never, context: Context) => Promise<unknown>;

/** Which payload API Gateway sends: REST API (v1) or HTTP API (v2). */
export type PayloadFormat = 'v1' | 'v2';

interface ProxyResult {
  statusCode: number;
  headers?: Record<string, string | number | boolean>;
  multiValueHeaders?: Record<string, (string | number | boolean)[]>;
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
}

/** An HTTP API (v2) event for one request: cookies apart, the body base64 as HTTP APIs send forms. */
function httpApiEvent(method: string, url: URL, headers: Record<string, string>, body: Buffer | null) {
  const { cookie, ...rest } = headers;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookie ? { cookies: cookie.split(/;\s*/) } : {}),
    headers: rest,
    requestContext: {
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: '' },
      requestId: crypto.randomUUID(),
      routeKey: '$default',
      stage: '$default',
    },
    body: body ? body.toString('base64') : undefined,
    isBase64Encoded: body !== null,
  };
}

/** A REST API (v1) event: restProxyEvent with the caller's address, as API Gateway fills it in. */
function restApiEvent(method: string, url: URL, headers: Record<string, string>, body: Buffer | null) {
  const event = restProxyEvent({ method, url, headers, body: body ? body.toString('utf8') : null });
  Object.assign(event.requestContext, { identity: { sourceIp: '127.0.0.1' }, httpMethod: method });
  return event;
}

/** The proxy result as an HTTP answer: every Set-Cookie of either version, the body decoded. */
function writeResult(response: ServerResponse, result: ProxyResult): void {
  const outgoing: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {}))
    outgoing[name.toLowerCase()] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
    outgoing[name.toLowerCase()] = values.map(String);
  if (result.cookies?.length) outgoing['set-cookie'] = result.cookies;
  response.writeHead(result.statusCode, outgoing);
  response.end(
    result.body === undefined
      ? undefined
      : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'),
  );
}

/** A running front: `url` is the host root, where every route is served. */
export interface LambdaFront {
  url: string;
  /** The payload version the next requests are sent as. */
  format: PayloadFormat;
  close(): Promise<void>;
}

/**
 * API Gateway in front of Lambda handlers at the host root, with no stage in the path (the front
 * door issue 20 asks for): each request goes to the first route whose path test matches, as a v1
 * or v2 proxy event (`format`), and its result comes back as API Gateway would send it. Unrouted
 * paths get API Gateway's 404.
 */
export async function startLambdaFront(
  routes: readonly { path: (path: string) => boolean; handler: () => ProxyHandler }[],
): Promise<LambdaFront> {
  const front = { format: 'v1' as PayloadFormat };
  const server: Server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Internal server error', front: String(error) }));
    });
  });

  async function answer(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://front');
    const route = routes.find((candidate) => candidate.path(url.pathname));
    if (!route) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Not Found' }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : null;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
    const method = request.method ?? 'GET';
    const event =
      front.format === 'v2'
        ? httpApiEvent(method, url, headers, body)
        : restApiEvent(method, url, headers, body);
    writeResult(response, (await route.handler()(event as never, lambdaContext())) as ProxyResult);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(front, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
