import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { loadToolDeps } from './call-tool.js';
import type { McpServerDeps, ToolContext } from './deps.js';
import { PROTOCOL_CAPABILITIES, serveProtocolCapabilities, toolProgress } from './protocol-capabilities.js';
import { runToolCall } from './request-pipeline.js';
import { enabledTools } from './toolsets.js';

const INSTRUCTIONS =
  'Meridian gives you time you can trust. Call get_temporal_context first to learn the current time and ' +
  'zone, then resolve_datetime to turn phrases like "next Tuesday at 2pm" into exact timestamps. ' +
  'Every timestamp is RFC 3339 with an offset. Failures come back as isError results whose JSON names a ' +
  'stable error code and says what to change.';

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
    { capabilities: { tools: {}, ...PROTOCOL_CAPABILITIES }, instructions: INSTRUCTIONS },
  );
  // A tool outside the connection's toolsets is neither listed nor callable.
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: enabledTools(await deps.tools.listing(), context.toolsets),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progress = toolProgress(server, request.params.name, extra);
    return runToolCall(deps, { ...context, progress }, request.params.name, request.params.arguments);
  });
  serveProtocolCapabilities(server, () => loadToolDeps(deps), context);
  return server;
}
