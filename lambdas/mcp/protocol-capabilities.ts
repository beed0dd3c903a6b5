import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { completeArgument } from './completions.js';
import type { CalendarSlice, ToolContext } from './deps.js';

/**
 * What Meridian declares beside tools. `logging`: the SDK answers logging/setLevel and filters
 * log notifications by it (tools report progress as log messages; stateless HTTP in JSON mode
 * drops them, stdio carries them). `resources` and `prompts` are empty until the rules and
 * memory areas fill them, so resources/list and prompts/list answer rather than -32601.
 */
export const PROTOCOL_CAPABILITIES = {
  logging: {},
  completions: {},
  resources: {},
  prompts: {},
} as const;

/** The spec's code for an unknown resource URI. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * Registers the handlers behind PROTOCOL_CAPABILITIES on a server that declares them.
 *
 * @example
 * serveProtocolCapabilities(server, () => deps.toolDeps('calendar'), { principal });
 */
export function serveProtocolCapabilities(
  server: Server,
  loadDeps: () => Promise<CalendarSlice>,
  context: ToolContext,
): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    throw new McpError(
      RESOURCE_NOT_FOUND,
      `Unknown resource "${request.params.uri}". Call resources/list to see the available resources.`,
    );
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown prompt "${request.params.name}". Call prompts/list to see the available prompts.`,
    );
  });
  server.setRequestHandler(CompleteRequestSchema, async (request) => ({
    completion: await completeArgument(loadDeps, context, request.params.argument),
  }));
}

/**
 * ToolContext.progress for one tools/call: each message goes out as an `info` log message from
 * the tool (the SDK drops it below the level set by logging/setLevel) and, when the request
 * carried a progress token, as a progress notification. A lost notification is not an error.
 */
export function toolProgress(
  server: Server,
  toolName: string,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
): (message: string) => void {
  const token = extra._meta?.progressToken;
  let step = 0;
  return (message) => {
    step += 1;
    server.sendLoggingMessage({ level: 'info', logger: toolName, data: message }).catch(() => undefined);
    if (token === undefined) return;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: step, message },
      })
      .catch(() => undefined);
  };
}
