import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { isDomainError } from '../core/errors.js';
import { echo } from '../core/input-limits.js';
import { oversizedArgumentResult } from './argument-limits.js';
import { parseCallToolParams } from './call-tool-params.js';
import type { Logger, McpDeps, McpServerDeps, ToolContext } from './deps.js';
import type { ToolDefinition } from './tool-definition.js';
import { domainErrorResult, invalidInputResult, successResult } from './tool-result.js';

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
  const parsed = tool.input.safeParse(rawArguments ?? {});
  if (!parsed.success) return invalidInputResult(tool.name, parsed.error.issues);
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
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await deps.tools.listing() }));
  // tools/call is the fallback handler, not a setRequestHandler one: the SDK parses a request
  // against its schema before that handler runs, and answers a malformed one (arguments: "str")
  // with -32603 and the raw zod issue list. Here it is -32602 in the terms of the request.
  server.fallbackRequestHandler = async (request) => {
    if (request.method !== 'tools/call') {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${echo(request.method)}.`);
    }
    const params = parseCallToolParams(request.params);
    const tool = await deps.tools.find(params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${echo(params.name)}. Call tools/list to see the available tools.`,
      );
    }
    return callTool(tool, params.arguments, await loadToolDeps(deps), context, deps.logger);
  };
  return server;
}
