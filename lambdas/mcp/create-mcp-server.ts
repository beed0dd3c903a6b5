import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { echo } from '../core/input-limits.js';
import { startCallWork } from './call-limits.js';
import { parseCallToolParams } from './call-tool-params.js';
import type { McpServerDeps, ToolContext } from './deps.js';
import { PROTOCOL_CAPABILITIES, serveProtocolCapabilities, toolProgress } from './protocol-capabilities.js';
import { runToolCall } from './request-pipeline.js';
import { serverInstructions } from './server-instructions.js';
import { enabledTools } from './toolsets.js';

/**
 * The one factory behind every transport (HTTP, Lambda, stdio): a low-level MCP `Server` whose
 * tools validate their own input, so every failure carries a stable Meridian error code. The
 * context comes from `admitConnection`; each tools/call runs through `runToolCall`
 * (request-pipeline.ts).
 *
 * @example
 * const server = createMcpServer(deps, { principal: LOCAL_OWNER });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(deps: McpServerDeps, context: ToolContext): Server {
  const server = new Server(
    { name: 'meridian', title: 'Meridian', version: deps.version },
    {
      capabilities: { tools: {}, ...PROTOCOL_CAPABILITIES },
      instructions: serverInstructions(context.toolsets),
    },
  );
  // A tool outside the connection's toolsets is neither listed nor callable.
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: enabledTools(await deps.tools.listing(), context.toolsets),
  }));
  // tools/call is the fallback handler, not a setRequestHandler one: the SDK parses a request
  // against its schema before that handler runs, and answers a malformed one (arguments: "str")
  // with -32603 and the raw zod issue list. Here it is -32602 in the terms of the request.
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== 'tools/call') {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${echo(request.method)}.`);
    }
    const params = parseCallToolParams(request.params);
    const progress = toolProgress(server, params.name, extra);
    if (context.work) return runToolCall(deps, { ...context, progress }, params.name, params.arguments);
    // No request around this call (stdio, in memory): it gets its own bound and deadline, and the
    // client's notifications/cancelled stops it.
    const { work, finish } = startCallWork(deps.callLimits, extra.signal);
    try {
      return await runToolCall(deps, { ...context, progress, work }, params.name, params.arguments);
    } finally {
      finish();
    }
  };
  serveProtocolCapabilities(server, deps, context);
  return server;
}
