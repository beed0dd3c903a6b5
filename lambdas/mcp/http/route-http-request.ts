import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { principalName } from '../../core/access/rights.js';
import { isDomainError } from '../../core/errors.js';
import type { PrefetchedBudget } from '../../core/limits/request-limiter.js';
import { startCallWork } from '../call-limits.js';
import { createMcpServer } from '../create-mcp-server.js';
import type { McpHttpDeps, McpServerDeps, ToolContext } from '../deps.js';
import { type AskedToolsets, admitConnection, type Credential } from '../request-pipeline.js';
import { traceContextOfBody } from '../trace/trace-context.js';
import { inTraceScope } from '../trace/trace-scope.js';
import { mcpPreflight, readableByOrigin } from './cors.js';
import { json, jsonRpcError } from './http-responses.js';
import { readJsonRpcBody } from './json-rpc-body.js';
import { insufficientScope, oauthUnauthorized } from './oauth-challenges.js';
import { NO_BROWSER_ORIGINS, type OriginPolicy, refuseForeignRequest } from './origin-policy.js';
import { type ProtectedResource, serveProtectedResourceMetadata } from './protected-resource.js';
import { checkRateLimit, type LimitVerdict, prefetchBudget } from './rate-limit-refusal.js';

export const MCP_PATH = '/mcp';
export const HEALTH_PATH = '/health';

/** What the router hands the SDK for one admitted request: the server's deps and the caller's context. */
interface Admitted {
  deps: McpServerDeps;
  context: ToolContext;
}

/**
 * The admitted caller rides in `authInfo` (the SDK passes it through to the factory untouched):
 * the handler is built once, so the per-request deps and context cannot be closed over.
 */
function asAuthInfo(admitted: Admitted): AuthInfo {
  return { token: '', clientId: principalName(admitted.context.principal), scopes: [], extra: { admitted } };
}

function admittedOf(authInfo: AuthInfo | undefined): Admitted {
  const admitted = authInfo?.extra?.admitted as Admitted | undefined;
  // routeHttpRequest always passes it: reaching here without it is a wiring fault.
  if (!admitted) throw new Error('MCP request reached the server without an admitted connection');
  return admitted;
}

/**
 * 2026-07-28 traffic: the SDK's entry does the whole revision — the `_meta` envelope,
 * `server/discover`, Mcp-Method/Mcp-Name/MCP-Protocol-Version checks (HeaderMismatch -32020),
 * UnsupportedProtocolVersion (-32022), `resultType` and the cache fields. `legacy: 'reject'`
 * because the SDK's own legacy leg answers SSE only (see serveLegacy). Built on the first modern
 * request, once per process: the SDK warns on stderr once per handler that JSON mode drops
 * mid-call notifications (Lambda cannot stream anyway), and a CLI command or a 2025-only
 * process should not print that.
 */
let modernHandler: McpHttpHandler | undefined;

function modern(): McpHttpHandler {
  modernHandler ??= createMcpHandler(
    ({ authInfo }) => createMcpServer(admittedOf(authInfo).deps, admittedOf(authInfo).context),
    { legacy: 'reject', responseMode: 'json' },
  );
  return modernHandler;
}

/**
 * 2025-era traffic (initialize, no envelope), statelessly: a new server and transport per request
 * (a stateless transport refuses reuse). Ours rather than the SDK's legacy leg because that one
 * answers SSE only, and Lambda answers JSON.
 */
async function serveLegacy(request: Request, admitted: Admitted, message: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = createMcpServer(admitted.deps, admitted.context);
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: message });
  } finally {
    await server.close();
  }
}

/**
 * 2026-07-28 answers a method the server does not implement with HTTP 404 and -32601. The SDK
 * does so only when no handler takes the method; Meridian's fallback handler (create-mcp-server.ts:
 * tools/call validated in its own terms) takes every method the SDK has no handler for and refuses
 * the others with -32601, which the SDK sends in-band on HTTP 200. No other handler answers -32601.
 */
async function methodNotFoundAs404(response: Response): Promise<Response> {
  if (response.status !== 200 || !response.headers.get('content-type')?.includes('application/json'))
    return response;
  const text = await response.text();
  if (!text.includes(String(ProtocolErrorCode.MethodNotFound))) return new Response(text, response);
  const answer = (() => {
    try {
      return JSON.parse(text) as { error?: { code?: unknown } };
    } catch {
      return undefined;
    }
  })();
  const status = answer?.error?.code === ProtocolErrorCode.MethodNotFound ? 404 : 200;
  return new Response(text, { status, headers: response.headers });
}

/** The request's id (`x-request-id`, else a new one) and client (its user agent), for the audit log. */
function requestFacts(request: Request): { requestId: string; client: string } {
  const given = request.headers.get('x-request-id')?.slice(0, 128);
  return { requestId: given || crypto.randomUUID(), client: request.headers.get('user-agent') ?? 'unknown' };
}

/** One MCP request, routed by the SDK's own classifier to the era it belongs to. */
async function serveMcp(
  request: Request,
  deps: McpServerDeps,
  context: ToolContext,
  message: unknown,
): Promise<Response> {
  // One allowance for the whole request, so a JSON-RPC batch is bounded as one call is; the
  // request's signal fires when its client goes away (node-http-server.ts), stopping the work.
  const { work, finish } = startCallWork(deps.callLimits, request.signal);
  const admitted = { deps, context: { ...context, work, ...requestFacts(request) } };
  try {
    if (await isLegacyRequest(request, message)) return await serveLegacy(request, admitted, message);
    return methodNotFoundAs404(
      await modern().fetch(request, { parsedBody: message, authInfo: asAuthInfo(admitted) }),
    );
  } finally {
    finish();
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The query parameter a connection chooses its toolsets with: `/mcp?toolsets=time,availability`. */
const TOOLSETS_PARAM = 'toolsets';

function credentialOf(request: Request): Extract<Credential, { kind: 'bearer' }> {
  return { kind: 'bearer', token: BEARER.exec(request.headers.get('authorization') ?? '')?.[1] };
}

function askedToolsets(request: Request): AskedToolsets | undefined {
  const list = new URL(request.url).searchParams.get(TOOLSETS_PARAM);
  return list === null ? undefined : { list, source: `?${TOOLSETS_PARAM}=` };
}

/** The HTTP answer to a connection the pipeline refused; anything else is not a refusal. */
function refusal(request: Request, error: unknown, protectedResource?: ProtectedResource): Response {
  if (!isDomainError(error)) throw error;
  if (error.code === 'UNAUTHENTICATED')
    return protectedResource ? oauthUnauthorized(request, protectedResource) : unauthorized(request);
  if (error.code === 'FORBIDDEN' && protectedResource && typeof error.details.required_scope === 'string')
    return insufficientScope(error.message, error.details.required_scope, protectedResource);
  // No tool result can carry it before the caller is known: the HTTP status says "retry".
  if (error.code === 'STORAGE_ERROR') return jsonRpcError(503, -32000, error.message, { 'retry-after': '5' });
  return jsonRpcError(400, ProtocolErrorCode.InvalidParams, error.message);
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

function normalisedPath(url: string): string {
  const { pathname } = new URL(url);
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** The 405 for a method the path does not serve, or undefined when it does (or the path is unknown). */
function methodNotAllowed(method: string, path: string): Response | undefined {
  if (path === MCP_PATH && method !== 'POST') {
    return jsonRpcError(405, -32000, `Method ${method} not allowed: send MCP requests as POST ${MCP_PATH}.`, {
      allow: 'POST',
    });
  }
  if (path === HEALTH_PATH && method !== 'GET' && method !== 'HEAD') {
    return json(
      405,
      { error: `Method ${method} not allowed: use GET ${HEALTH_PATH}.` },
      { allow: 'GET, HEAD' },
    );
  }
  return undefined;
}

// fetch refuses to build a Request with these methods.
const UNREPRESENTABLE_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The 405 for a method that fetch cannot carry in a `Request` (TRACE, TRACK, CONNECT), for the
 * adapters to answer before building one; undefined for every other method.
 *
 * @example
 * refuseUnrepresentableMethod('TRACE', '/mcp')?.headers.get('allow'); // 'POST'
 */
export function refuseUnrepresentableMethod(method: string, path: string): Response | undefined {
  if (!UNREPRESENTABLE_METHODS.has(method)) return undefined;
  return methodNotAllowed(method, path) ?? json(405, { error: `Method ${method} is not supported.` });
}

/**
 * The single HTTP entry shared by `meridian serve` (node:http) and the Lambda handler. In order:
 * a foreign Origin (or, on loopback, Host) gets 403; an allowed one's preflight of /mcp is
 * answered, and its answers from /mcp carry CORS (cors.ts); POST /mcp is MCP for a connection the
 * request pipeline admits (request-pipeline.ts: a valid Bearer API key, else 401, decided from
 * the headers before the body is read; known `?toolsets=`, else 400); other
 * methods on /mcp get 405 (a GET would open an SSE stream that a stateless server never writes
 * to); GET /health is a liveness probe; anything else is 404.
 *
 * @example
 * const response = await routeHttpRequest(new Request('http://localhost/health'), deps);
 */
export async function routeHttpRequest(
  request: Request,
  deps: McpHttpDeps,
  origins: OriginPolicy = NO_BROWSER_ORIGINS,
): Promise<Response> {
  // Public metadata, read cross-origin by browser-based clients: before the origin policy.
  const metadata = serveProtectedResourceMetadata(
    request,
    normalisedPath(request.url),
    deps.protectedResource,
  );
  if (metadata) return metadata;
  const foreign = refuseForeignRequest(request, origins);
  if (foreign) return foreign;
  const path = normalisedPath(request.url);
  // Past the origin policy, an Origin is one that may call /mcp from a browser.
  const origin = request.headers.get('origin');
  if (origin !== null && path === MCP_PATH) {
    if (request.method === 'OPTIONS') return mcpPreflight(origin);
    return readableByOrigin(await servePath(request, deps, path), origin);
  }
  return servePath(request, deps, path);
}

/** Everything past the origin policy: 405s, /mcp, /health, 404. */
async function servePath(request: Request, deps: McpHttpDeps, path: string): Promise<Response> {
  const refusedMethod = methodNotAllowed(request.method, path);
  if (refusedMethod) return refusedMethod;
  if (path === MCP_PATH) {
    const credential = credentialOf(request);
    const budget = prefetchBudget(deps, credential.token);
    let context: ToolContext;
    try {
      context = await admitConnection(deps, credential, askedToolsets(request));
    } catch (error) {
      return refusal(request, error, deps.protectedResource);
    }
    const body = await readJsonRpcBody(request);
    if ('refused' in body) return body.refused;
    // Every log line from here on, in any part the request reaches, carries its trace context.
    return inTraceScope(traceContextOfBody(body.message), () =>
      serveAdmitted(request, deps, context, body, budget),
    );
  }
  if (path === HEALTH_PATH) return json(200, { status: 'ok', version: deps.version });
  return json(404, { error: `Not found: ${path}. The MCP endpoint is POST ${MCP_PATH}.` });
}

/** An admitted MCP request with its body read: the rate limit, then the call. */
async function serveAdmitted(
  request: Request,
  deps: McpHttpDeps,
  context: ToolContext,
  body: { message: unknown },
  budget: PrefetchedBudget | undefined,
): Promise<Response> {
  let limit: LimitVerdict;
  try {
    limit = await checkRateLimit(deps, context, body.message, budget);
  } catch (error) {
    return refusal(request, error);
  }
  if ('refused' in limit) return limit.refused;
  try {
    return await serveMcp(request, deps, context, body.message);
  } finally {
    // The spend's write ran beside the call; finished before answering, so a Lambda frozen
    // after its answer leaves no write half done. A failure costs the budget, not the call.
    await limit.settled.catch((error: unknown) =>
      deps.logger.error('a rate-limit spend was not written', { error }),
    );
  }
}
