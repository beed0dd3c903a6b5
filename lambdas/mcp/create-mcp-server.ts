import {
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import { echo } from '../core/input-limits.js';
import { startCallWork } from './call-limits.js';
import { parseCallToolParams } from './call-tool-params.js';
import type { McpServerDeps, ToolContext } from './deps.js';
import { ParamsRefusingServer } from './params-refusing-server.js';
import { PROTOCOL_CAPABILITIES, serveProtocolCapabilities, toolProgress } from './protocol-capabilities.js';
import { runToolCall } from './request-pipeline.js';
import { serverInstructions } from './server-instructions.js';
import { enabledTools } from './toolsets.js';

const FIVE_MINUTES = 300_000;

/**
 * What Meridian answers in `ttlMs` / `cacheScope` on 2026-07-28 results (the SDK stamps them; a
 * 2025 result never carries them). The tool, prompt and template listings change only with a
 * deployment or the connection's toolsets, so a client may keep them five minutes — but only for
 * itself (`private`): toolsets follow the key. Resources hold the organization's data (projects,
 * rules, memory), which any tool call may change: never cached. `server/discover` carries
 * instructions that name the connection's toolsets (the key's default among them): `private`
 * too. See the README, "Protocol versions".
 */
export const CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  'tools/list': { ttlMs: FIVE_MINUTES, cacheScope: 'private' },
  'prompts/list': { ttlMs: FIVE_MINUTES, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: FIVE_MINUTES, cacheScope: 'private' },
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
  'server/discover': { ttlMs: FIVE_MINUTES, cacheScope: 'private' },
};

/**
 * The one factory behind every transport (HTTP, Lambda, stdio) and both protocol eras: a
 * low-level MCP `Server` whose tools validate their own input, so every failure carries a stable
 * Meridian error code. The SDK does what differs between eras (initialize or the `_meta`
 * envelope, `server/discover`, `resultType`, cache fields); this server is the same for both. The
 * context comes from `admitConnection`; each tools/call runs through `runToolCall`
 * (request-pipeline.ts).
 *
 * @example
 * const handle = serveStdio(() => createMcpServer(deps, { principal: LOCAL_OWNER }));
 */
export function createMcpServer(deps: McpServerDeps, context: ToolContext): Server {
  // The low-level Server, not McpServer: McpServer would validate tool input itself and answer
  // an unknown tool with -32602, where Meridian's pipeline answers with its own error codes, and
  // it would import every tool to register it (the catalogue loads them on first call).
  const server = new ParamsRefusingServer(
    { name: 'meridian', title: 'Meridian', version: deps.version },
    {
      capabilities: { tools: {}, ...PROTOCOL_CAPABILITIES },
      instructions: serverInstructions(context.toolsets),
      cacheHints: CACHE_HINTS,
    },
  );
  // A tool outside the connection's toolsets is neither listed nor callable. The order is the
  // catalogue's (toolset, then the order of tools/index.ts), the same on every call: the SDK
  // keeps handler order, and a stable listing keeps a client's prompt cache warm.
  server.setRequestHandler('tools/list', async () => ({
    tools: enabledTools(await deps.tools.listing(), context.toolsets),
  }));
  // tools/call is the fallback handler, not a setRequestHandler one: the SDK parses a request
  // against its schema before that handler runs, and answers a malformed one (arguments: "str")
  // with its own terms. Here it is -32602 in the terms of the request.
  server.fallbackRequestHandler = async (request, ctx) => {
    if (request.method !== 'tools/call') {
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: ${echo(request.method)}.`);
    }
    const params = parseCallToolParams(request.params);
    const progress = toolProgress(params.name, ctx);
    if (context.work) return runToolCall(deps, { ...context, progress }, params.name, params.arguments);
    // No request around this call (stdio, in memory): it gets its own bound and deadline, and the
    // client's notifications/cancelled stops it.
    const { work, finish } = startCallWork(deps.callLimits, ctx.mcpReq.signal);
    try {
      return await runToolCall(deps, { ...context, progress, work }, params.name, params.arguments);
    } finally {
      finish();
    }
  };
  serveProtocolCapabilities(server, deps, context);
  return server;
}
