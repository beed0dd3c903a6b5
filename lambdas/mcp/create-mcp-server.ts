import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isDomainError } from '../core/errors.js';
import type { McpDeps, ToolContext } from './deps.js';
import type { ToolDefinition } from './tool-definition.js';
import { domainErrorResult, invalidInputResult, successResult } from './tool-result.js';
import { ALL_TOOLS } from './tools/index.js';

const INSTRUCTIONS =
  'Meridian gives you time you can trust. Call get_temporal_context first to learn the current time and ' +
  'zone, then resolve_datetime to turn phrases like "next Tuesday at 2pm" into exact timestamps. ' +
  'Every timestamp is RFC 3339 with an offset. Failures come back as isError results whose JSON names a ' +
  'stable error code and says what to change.';

function describeTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as Tool['inputSchema'],
    outputSchema: z.toJSONSchema(tool.output, { io: 'output' }) as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * Builds a tool catalogue once per process: JSON Schema generation is the costly part, and a
 * stateless server creates a new `Server` for every request.
 */
export function createToolCatalogue(tools: readonly ToolDefinition[]) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listing = tools.map(describeTool);
  return { byName, listing };
}

const defaultCatalogue = createToolCatalogue(ALL_TOOLS);

async function callTool(
  tool: ToolDefinition,
  rawArguments: unknown,
  deps: McpDeps,
  context: ToolContext,
): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(rawArguments ?? {});
  if (!parsed.success) return invalidInputResult(tool.name, parsed.error.issues);
  try {
    const output = await tool.run(deps, parsed.data, context);
    const format = (parsed.data as { format?: unknown }).format;
    return successResult(output as Record<string, unknown>, format, tool.toonView?.(output));
  } catch (error) {
    if (isDomainError(error)) return domainErrorResult(error);
    // A bug or an outage: log the details here, tell the client nothing internal.
    deps.logger.error('tool failed', { tool: tool.name, error });
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
export function createMcpServer(deps: McpDeps, context: ToolContext, catalogue = defaultCatalogue): Server {
  const server = new Server(
    { name: 'meridian', title: 'Meridian', version: deps.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: catalogue.listing }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = catalogue.byName.get(request.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}". Call tools/list to see the available tools.`,
      );
    }
    return callTool(tool, request.params.arguments, deps, context);
  });
  return server;
}
