import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { isDomainError } from '../core/errors.js';
import type { DepsSlice, Logger, McpServerDeps, SliceDeps, ToolContext } from './deps.js';
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
  deps: McpServerDeps,
  context: ToolContext,
  logger: Logger,
): Promise<CallToolResult> {
  const args = rawArguments ?? {};
  const parsed = tool.input.safeParse(args);
  // zod drops fields it does not know; refusing them keeps a typo from reading as accepted.
  const unknown = unknownFields(tool.input, args);
  if (!parsed.success || unknown.length > 0) {
    const issues = parsed.success ? [] : parsed.error.issues;
    return invalidInputResult(tool.name, issues, { schema: tool.input, raw: args, unknown });
  }
  // Only the slice the tool declared is built: input refused above builds none.
  const toolDeps = await loadToolDeps(deps, tool.needs);
  try {
    const output = await tool.run(toolDeps, parsed.data, context);
    const format = (parsed.data as { format?: unknown }).format;
    return successResult(output as Record<string, unknown>, format, tool.toonView?.(output));
  } catch (error) {
    if (isDomainError(error)) return domainErrorResult(error);
    // A bug or an outage: log the details here, tell the client nothing internal.
    logger.error('tool failed', { tool: tool.name, error });
    throw new McpError(ErrorCode.InternalError, 'Internal error');
  }
}

/** A slice of the tools' object graph; a failure to build it is logged and reported without internals. */
async function loadToolDeps<Slice extends DepsSlice>(
  deps: McpServerDeps,
  slice: Slice,
): Promise<SliceDeps[Slice]> {
  try {
    return await deps.toolDeps(slice);
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
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = await findEnabledTool(deps.tools, request.params.name, context.toolsets);
    const progress = toolProgress(server, tool.name, extra);
    return callTool(tool, request.params.arguments, deps, { ...context, progress }, deps.logger);
  });
  serveProtocolCapabilities(server, () => loadToolDeps(deps, 'calendar'), context);
  return server;
}
