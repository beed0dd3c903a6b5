import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../core/access/rights.js';
import { isDomainError } from '../../core/errors.js';
import { createMcpServer } from '../create-mcp-server.js';
import type { McpHttpDeps, McpServerDeps, ToolContext } from '../deps.js';
import type { ToolsetSelection } from '../toolsets.js';
import { connectionToolsets } from './connection-toolsets.js';

export const MCP_PATH = '/mcp';
export const HEALTH_PATH = '/health';

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}) {
  return json(status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

/**
 * Serves one MCP request statelessly: a new server and transport per request (a stateless
 * transport refuses reuse), JSON responses rather than SSE so it fits Lambda's request/response.
 */
async function serveMcp(request: Request, deps: McpServerDeps, context: ToolContext): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = createMcpServer(deps, context);
  try {
    await server.connect(transport);
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

async function authenticate(request: Request, deps: McpHttpDeps): Promise<Principal | undefined> {
  const match = BEARER.exec(request.headers.get('authorization') ?? '');
  return match ? deps.authenticate(match[1]!) : undefined;
}

function unauthorized(request: Request): Response {
  const presented = request.headers.has('authorization');
  const message = presented
    ? 'The API key is unknown or revoked. Ask the owner for a valid key (`npx meridian keys list`).'
    : 'Missing API key: send "Authorization: Bearer <key>". The owner creates one with `npx meridian keys create --label NAME`.';
  return jsonRpcError(401, -32001, message, {
    'www-authenticate': `Bearer realm="meridian"${presented ? ', error="invalid_token"' : ''}`,
  });
}

/**
 * The single HTTP entry shared by `meridian serve` (node:http) and the Lambda handler:
 * POST /mcp is MCP for a caller with a valid Bearer API key (401 otherwise); other methods on /mcp get 405 (a GET would open an SSE stream that a stateless
 * server never writes to); GET /health is a liveness probe; anything else is 404.
 *
 * @example
 * const response = await routeHttpRequest(new Request('http://localhost/health'), deps);
 */
export async function routeHttpRequest(request: Request, deps: McpHttpDeps): Promise<Response> {
  const { pathname } = new URL(request.url);
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === MCP_PATH) {
    if (request.method === 'POST') {
      let principal: Principal | undefined;
      try {
        principal = await authenticate(request, deps);
      } catch (error) {
        // No tool result can carry it before the caller is known: the HTTP status says "retry".
        if (!isDomainError(error, 'STORAGE_ERROR')) throw error;
        return jsonRpcError(503, -32000, error.message, { 'retry-after': '5' });
      }
      if (!principal) return unauthorized(request);
      let toolsets: ToolsetSelection;
      try {
        toolsets = await connectionToolsets(request, deps, principal);
      } catch (error) {
        if (!isDomainError(error)) throw error;
        return jsonRpcError(400, ErrorCode.InvalidParams, error.message);
      }
      return serveMcp(request, deps, { principal, toolsets });
    }
    return jsonRpcError(
      405,
      -32000,
      `Method ${request.method} not allowed: send MCP requests as POST ${MCP_PATH}.`,
      {
        allow: 'POST',
      },
    );
  }
  if (path === HEALTH_PATH) {
    if (request.method === 'GET' || request.method === 'HEAD')
      return json(200, { status: 'ok', version: deps.version });
    return json(405, { error: `Use GET ${HEALTH_PATH}.` }, { allow: 'GET, HEAD' });
  }
  return json(404, { error: `Not found: ${path}. The MCP endpoint is POST ${MCP_PATH}.` });
}
