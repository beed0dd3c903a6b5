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
import { isDomainError } from '../core/errors.js';
import { echo } from '../core/input-limits.js';
import { loadToolDeps } from './call-tool.js';
import { completeArgument } from './completions.js';
import type { McpServerDeps, ToolContext } from './deps.js';
import { checkPromptArguments, promptListing } from './prompt-registry.js';
import { PROMPTS } from './prompts/index.js';
import { familyOf } from './resource-registry.js';
import { RESOURCE_FAMILIES } from './resources/index.js';
import { isEnabled } from './toolsets.js';

/**
 * What Meridian declares beside tools. `logging`: the SDK answers logging/setLevel and filters
 * log notifications by it (tools report progress as log messages; stateless HTTP in JSON mode
 * drops them, stdio carries them). `resources` and `prompts`: the families in resources/index.ts
 * and the prompts in prompts/index.ts, each shown only when its toolset is enabled.
 */
export const PROTOCOL_CAPABILITIES = {
  logging: {},
  completions: {},
  resources: {},
  prompts: {},
} as const;

/** The spec's code for an unknown resource URI. */
const RESOURCE_NOT_FOUND = -32002;

function unknownResource(uri: string): McpError {
  return new McpError(
    RESOURCE_NOT_FOUND,
    `Unknown resource ${echo(uri)}. Call resources/list to see the resources you may read.`,
  );
}

function offToolset(what: string, toolset: string): string {
  return (
    `${what} belongs to toolset "${toolset}", which this connection did not enable. Enable it with ` +
    `/mcp?toolsets=…,${toolset}, \`meridian serve|stdio --toolsets …,${toolset}\`, or the key's default.`
  );
}

/**
 * Runs a resource or prompt handler: a DomainError (a value the caller can fix) becomes -32602
 * with its code and message; anything else is logged and answered -32603 with nothing internal.
 */
async function answering<T>(deps: McpServerDeps, what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (isDomainError(error))
      throw new McpError(ErrorCode.InvalidParams, error.message, { code: error.code, ...error.details });
    deps.logger.error(`${what} failed`, { error });
    throw new McpError(ErrorCode.InternalError, 'Internal error');
  }
}

/**
 * Registers the handlers behind PROTOCOL_CAPABILITIES on a server that declares them. Each
 * resource family and prompt gets only the slice it declares, built on first use.
 *
 * @example
 * serveProtocolCapabilities(server, deps, { principal });
 */
export function serveProtocolCapabilities(server: Server, deps: McpServerDeps, context: ToolContext): void {
  const enabled = <T extends { toolset: string }>(items: readonly T[]) =>
    items.filter((item) => isEnabled(context.toolsets, item.toolset));
  server.setRequestHandler(ListResourcesRequestSchema, () =>
    answering(deps, 'resources/list', async () => {
      const lists = await Promise.all(
        enabled(RESOURCE_FAMILIES).map(async (family) =>
          family.list(await loadToolDeps(deps, family.needs), context),
        ),
      );
      return { resources: lists.flat() };
    }),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: enabled(RESOURCE_FAMILIES).flatMap((family) => family.templates),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params: { uri } }) =>
    answering(deps, 'resources/read', async () => {
      const family = familyOf(RESOURCE_FAMILIES, uri);
      if (!family) throw unknownResource(uri);
      if (!isEnabled(context.toolsets, family.toolset))
        throw new McpError(RESOURCE_NOT_FOUND, offToolset(`Resource ${echo(uri)}`, family.toolset));
      const contents = await family.read(await loadToolDeps(deps, family.needs), uri, context);
      if (!contents) throw unknownResource(uri);
      return { contents };
    }),
  );
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: enabled(PROMPTS).map(promptListing),
  }));
  server.setRequestHandler(GetPromptRequestSchema, ({ params }) =>
    answering(deps, 'prompts/get', async () => {
      const prompt = PROMPTS.find((candidate) => candidate.name === params.name);
      if (!prompt)
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown prompt ${echo(params.name)}. Call prompts/list to see the available prompts.`,
        );
      if (!isEnabled(context.toolsets, prompt.toolset))
        throw new McpError(ErrorCode.InvalidParams, offToolset(`Prompt "${prompt.name}"`, prompt.toolset));
      const args = checkPromptArguments(prompt, params.arguments);
      return prompt.render(await loadToolDeps(deps, prompt.needs), args, context);
    }),
  );
  server.setRequestHandler(CompleteRequestSchema, (request) =>
    answering(deps, 'completion/complete', async () => ({
      completion: await completeArgument(
        (slice) => loadToolDeps(deps, slice),
        context,
        request.params.argument,
      ),
    })),
  );
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
