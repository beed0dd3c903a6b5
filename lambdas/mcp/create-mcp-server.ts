import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { isDomainError } from '../core/errors.js';
import { echo } from '../core/input-limits.js';
import type { Logger } from '../core/ports/index.js';
import { oversizedArgumentResult } from './argument-limits.js';
import { parseCallToolParams } from './call-tool-params.js';
import type { McpDeps, McpServerDeps, ToolContext } from './deps.js';
import { PROTOCOL_CAPABILITIES, serveProtocolCapabilities, toolProgress } from './protocol-capabilities.js';
import { findEnabledTool } from './tool-catalogue.js';
import type { ToolDefinition } from './tool-definition.js';
import { domainErrorResult, invalidInputResult, successResult } from './tool-result.js';
import { enabledTools } from './toolsets.js';
import { unknownFields } from './unknown-fields.js';

const INSTRUCTIONS =
  'Meridian gives you time you can trust. Call get_temporal_context first to learn the current time and ' +
  'zone, then resolve_datetime to turn phrases like "next Tuesday at 2pm" into exact timestamps. ' +
  'Every timestamp is RFC 3339 with an offset. Failures come back as isError results whose JSON names a ' +
  'stable error code and says what to change.';

async function callTool(
  tool: ToolDefinition,
  rawArguments: unknown,
  deps: McpDeps,
  context: ToolContext,
  logger: Logger,
): Promise<CallToolResult> {
  const oversized = oversizedArgumentResult(rawArguments);
  if (oversized) return oversized;
  const args = rawArguments ?? {};
  const parsed = tool.input.safeParse(args);
  // zod drops fields it does not know; refusing them keeps a typo from reading as accepted.
  const unknown = unknownFields(tool.input, args);
  if (!parsed.success || unknown.length > 0) {
    const issues = parsed.success ? [] : parsed.error.issues;
    return invalidInputResult(tool.name, issues, { schema: tool.input, raw: args, unknown });
  }
  try {
    const output = await tool.run(deps, parsed.data, context);
    const format = (parsed.data as { format?: unknown }).format;
    return successResult(output as Record<string, unknown>, format, tool.toonView?.(output));
  } catch (error) {
    if (isDomainError(error)) return domainErrorResult(error);
    // A bug or an outage: log the details here, tell the client nothing internal.
    logger.error('tool failed', { tool: tool.name, error });
    throw new McpError(ErrorCode.InternalError, 'Internal error');
  }
}

/** The tools' object graph; a failure to build it is logged and reported without internals. */
async function loadToolDeps(deps: McpServerDeps): Promise<McpDeps> {
  try {
    return await deps.toolDeps();
  } catch (error) {
    deps.logger.error('building the tool dependencies failed', { error });
    throw new McpError(ErrorCode.InternalError, 'Internal error');
  }
}

/**
 * The one factory behind every transport (HTTP, Lambda, stdio): a low-level MCP `Server` whose
 * tools validate their own input, so every failure carries a stable Meridian error code.
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
  // tools/call is the fallback handler, not a setRequestHandler one: the SDK parses a request
  // against its schema before that handler runs, and answers a malformed one (arguments: "str")
  // with -32603 and the raw zod issue list. Here it is -32602 in the terms of the request.
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== 'tools/call') {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${echo(request.method)}.`);
    }
    const params = parseCallToolParams(request.params);
    const tool = await findEnabledTool(deps.tools, params.name, context.toolsets);
    const progress = toolProgress(server, tool.name, extra);
    return callTool(tool, params.arguments, await loadToolDeps(deps), { ...context, progress }, deps.logger);
  };
  serveProtocolCapabilities(server, () => loadToolDeps(deps), context);
  return server;
}
