import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { restProxyEvent } from '../support/lambda-fetch.js';
import { resourcesOfType } from './cloud-assembly.js';
import type { DeployedNames } from './intrinsics.js';

/** One route of the template's REST API: a method on a resource path, proxied to a function ARN. */
export interface ApiRoute {
  method: string;
  /** The resource path, e.g. `/mcp`. */
  path: string;
  functionArn: string;
}

/** The REST API as the template declares it: its stage name and its proxy routes. */
export interface TemplateApi {
  stageName: string;
  routes: ApiRoute[];
}

/**
 * Reads the REST API from the template: every AWS::ApiGateway::Method with its resource path
 * (walked up through the resources' ParentId) and the function its Lambda proxy integration
 * invokes (from the integration URI), and the stage name of the deployment stage.
 */
export function templateApi(names: DeployedNames): TemplateApi {
  const { assembly } = names;
  const [stage, ...otherStages] = resourcesOfType(assembly, 'AWS::ApiGateway::Stage');
  if (!stage || otherStages.length > 0)
    throw new Error('The rehearsal expects exactly one API Gateway stage.');
  const routes = resourcesOfType(assembly, 'AWS::ApiGateway::Method').map(({ stack, properties }) => {
    const integration = properties.Integration as { Type: string; Uri: unknown };
    if (integration.Type !== 'AWS_PROXY')
      throw new Error(`Only Lambda proxy integrations are rehearsed (got ${integration.Type})`);
    const uri = String(names.resolve(stack, integration.Uri));
    const functionArn = /:lambda:path\/2015-03-31\/functions\/(.+)\/invocations$/.exec(uri)?.[1];
    if (!functionArn) throw new Error(`Not a Lambda invocation URI: ${uri}`);
    const segments: string[] = [];
    let parent = properties.ResourceId as { Ref?: string };
    while (parent.Ref) {
      const resource = stack.resources[parent.Ref]!.Properties as {
        PathPart: string;
        ParentId: { Ref?: string };
      };
      segments.unshift(resource.PathPart);
      parent = resource.ParentId;
    }
    return { method: String(properties.HttpMethod), path: `/${segments.join('/')}`, functionArn };
  });
  return { stageName: String(names.resolve(stage.stack, stage.properties.StageName)), routes };
}

/** A running local front: `url` is the stage's base URL (`http://127.0.0.1:PORT/prod`). */
export interface ApiFront {
  url: string;
  close(): Promise<void>;
}

/**
 * API Gateway's REST proxy in front of the functions: a request to `/<stage><path>` whose method
 * and path match a route of the template becomes a proxy event for that route's function; any
 * other gets API Gateway's answer to an unknown route (403 "Missing Authentication Token").
 */
export async function startApiFront(
  api: TemplateApi,
  invoke: (functionArn: string, event: unknown) => Promise<unknown>,
): Promise<ApiFront> {
  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // API Gateway's answer when the integration fails (the function threw or timed out).
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Internal server error', rehearsal: String(error) }));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://rehearsal');
    const prefix = `/${api.stageName}`;
    const path = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
    const route = api.routes.find(
      (candidate) => candidate.path === path && candidate.method === request.method,
    );
    if (!route) {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Missing Authentication Token' }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
    const event = {
      ...restProxyEvent({
        method: request.method ?? 'GET',
        url: new URL(`${url.pathname.slice(prefix.length)}${url.search}`, 'http://rehearsal'),
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : null,
      }),
      resource: route.path,
    };
    (event.requestContext as unknown as Record<string, unknown>).stage = api.stageName;
    const result = (await invoke(route.functionArn, event)) as APIGatewayProxyResult;
    const outgoing: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) outgoing[name] = String(value);
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
      outgoing[name] = values.map(String);
    response.writeHead(result.statusCode, outgoing);
    response.end(
      result.body === undefined
        ? undefined
        : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'),
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/${api.stageName}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
