import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { resourcesOfType } from './cloud-assembly.js';
import { httpApiEvent } from './http-api-event.js';
import type { DeployedNames } from './intrinsics.js';

/** One route of the template's HTTP API: its route key, proxied to a function ARN. */
export interface ApiRoute {
  /** `GET`, `POST`, … or `ANY`. */
  method: string;
  /** The route's path, e.g. `/mcp` or `/oauth/{proxy+}`. */
  path: string;
  functionArn: string;
}

/** The HTTP API as the template declares it: its one stage and its proxy routes. */
export interface TemplateApi {
  /** `$default` serves the routes at the host root; any other name is the first path segment. */
  stageName: string;
  routes: ApiRoute[];
}

/**
 * Reads the HTTP API from the template: every AWS::ApiGatewayV2::Route with its route key and
 * the function its Lambda proxy integration (payload format 2.0) invokes, and the stage name.
 */
export function templateApi(names: DeployedNames): TemplateApi {
  const { assembly } = names;
  const [stage, ...otherStages] = resourcesOfType(assembly, 'AWS::ApiGatewayV2::Stage');
  if (!stage || otherStages.length > 0)
    throw new Error('The rehearsal expects exactly one API Gateway (v2) stage.');
  const routes = resourcesOfType(assembly, 'AWS::ApiGatewayV2::Route').map(({ stack, properties }) => {
    const [method, path] = String(properties.RouteKey).split(' ') as [string, string];
    const target = names.resolve(stack, properties.Target) as string;
    const integrationId = /^integrations\/(.+)$/.exec(target)?.[1];
    const integration = Object.entries(stack.resources).find(
      ([logicalId, resource]) =>
        resource.Type === 'AWS::ApiGatewayV2::Integration' &&
        names.physical(stack, logicalId).ref === integrationId,
    )?.[1].Properties as { IntegrationType: string; IntegrationUri: unknown; PayloadFormatVersion: string };
    if (!integration) throw new Error(`Route ${properties.RouteKey} targets no integration of the template`);
    if (integration.IntegrationType !== 'AWS_PROXY' || integration.PayloadFormatVersion !== '2.0')
      throw new Error(
        `Only Lambda proxy integrations with payload 2.0 are rehearsed (got ${integration.IntegrationType} ${integration.PayloadFormatVersion})`,
      );
    return { method, path, functionArn: String(names.resolve(stack, integration.IntegrationUri)) };
  });
  return { stageName: String(names.resolve(stage.stack, stage.properties.StageName)), routes };
}

/**
 * The route an HTTP API picks for a request (the API Gateway developer guide, "Routing API
 * requests"): an exact path before a greedy `{proxy+}` one (the longest prefix first), and the
 * method before `ANY`.
 */
export function matchRoute(routes: readonly ApiRoute[], method: string, path: string): ApiRoute | undefined {
  const greedyPrefix = (route: ApiRoute) =>
    route.path.endsWith('/{proxy+}') ? route.path.slice(0, -'{proxy+}'.length) : undefined;
  const byMethod = (candidates: ApiRoute[]) =>
    candidates.find((route) => route.method === method) ?? candidates.find((route) => route.method === 'ANY');
  const exact = byMethod(routes.filter((route) => route.path === path));
  if (exact) return exact;
  const greedy = routes
    .filter((route) => {
      const prefix = greedyPrefix(route);
      return prefix !== undefined && path.startsWith(prefix) && path.length > prefix.length;
    })
    .sort((a, b) => b.path.length - a.path.length);
  return byMethod(greedy);
}

/** A running local front: `url` is the host root (`http://127.0.0.1:PORT`), as the API's own. */
export interface ApiFront {
  url: string;
  close(): Promise<void>;
}

/**
 * API Gateway's HTTP API in front of the functions: a request whose method and path match a
 * route of the template becomes a payload 2.0 event for that route's function, under the stage's
 * prefix (none for `$default`); any other gets the HTTP API's answer to an unknown route (404
 * `{"message":"Not Found"}`). The function's headers go back as it returned them: an HTTP API
 * renames none (ADR 0025), unlike a REST API's proxy.
 */
export async function startApiFront(
  api: TemplateApi,
  invoke: (functionArn: string, event: unknown) => Promise<unknown>,
): Promise<ApiFront> {
  const prefix = api.stageName === '$default' ? '' : `/${api.stageName}`;
  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // API Gateway's answer when the integration fails (the function threw or timed out).
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Internal Server Error', rehearsal: String(error) }));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://rehearsal');
    const path = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
    const route = path === undefined ? undefined : matchRoute(api.routes, request.method ?? 'GET', path);
    if (!route || path === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Not Found' }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const event = httpApiEvent({
      routeKey: `${route.method} ${route.path}`,
      stage: api.stageName,
      method: request.method ?? 'GET',
      path,
      rawQueryString: url.search.slice(1),
      headers: request.headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const result = (await invoke(route.functionArn, event)) as APIGatewayProxyStructuredResultV2;
    const outgoing: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) outgoing[name] = String(value);
    if (result.cookies?.length) outgoing['set-cookie'] = result.cookies;
    response.writeHead(result.statusCode ?? 200, outgoing);
    response.end(
      result.body === undefined
        ? undefined
        : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'),
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
