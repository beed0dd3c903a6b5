import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isDomainError } from '../core/errors.js';
import { echo } from '../core/input-limits.js';
import { once } from '../core/once.js';
import { loadToolDeps } from './call-tool.js';
import type { McpServerDeps, ToolContext } from './deps.js';
import { isEnabled } from './toolsets.js';

/** The prompts, resources and completions, imported on the first request for one of them. */
const catalogue = once(() => import('./prompts-and-resources.js'));

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

/**
 * An unknown resource URI. 2026-07-28 answers it with -32602 Invalid params, and the SDK rewrites
 * 2025's -32002 to -32602 on every era, so it is thrown as -32602 here.
 */
/** Longer URIs are no resource of Meridian's: the error does not repeat them in `data`. */
const MAX_ECHOED_URI = 2048;

/**
 * -32602 naming the resource, with the requested URI in `data.uri` as 2026-07-28 asks (SHOULD,
 * SEP-2164); the same for a resource that does not exist and one the key may not read.
 */
function unknownResource(uri: string): ProtocolError {
  const message = `Unknown resource ${echo(uri)}. Call resources/list to see the resources you may read.`;
  if (uri.length > MAX_ECHOED_URI) return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
  return new ResourceNotFoundError(uri, message);
}

function offToolset(what: string, toolset: string): string {
  return (
    `${what} belongs to toolset "${toolset}", which this connection did not enable. Enable it with ` +
    `/mcp?toolsets=…,${toolset}, \`meridian serve|stdio --toolsets …,${toolset}\`, or the key's default.`
  );
}

/**
 * Runs a resource or prompt handler: a DomainError becomes -32602 with its code and message (a
 * value the caller can fix), or -32603 for STORAGE_ERROR (not the request's fault: its message
 * says to retry); anything else is logged and answered -32603 with nothing internal.
 */
async function answering<T>(deps: McpServerDeps, what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    if (isDomainError(error)) {
      const code =
        error.code === 'STORAGE_ERROR' ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
      throw new ProtocolError(code, error.message, { code: error.code, ...error.details });
    }
    deps.logger.error(`${what} failed`, { error });
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
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
  server.setRequestHandler('resources/list', () =>
    answering(deps, 'resources/list', async () => {
      const { RESOURCE_FAMILIES } = await catalogue();
      const lists = await Promise.all(
        enabled(RESOURCE_FAMILIES).map(async (family) =>
          family.list(await loadToolDeps(deps, family.needs), context),
        ),
      );
      return { resources: lists.flat() };
    }),
  );
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: enabled((await catalogue()).RESOURCE_FAMILIES).flatMap((family) => family.templates),
  }));
  server.setRequestHandler('resources/read', ({ params: { uri } }) =>
    answering(deps, 'resources/read', async () => {
      const { RESOURCE_FAMILIES, familyOf } = await catalogue();
      const family = familyOf(RESOURCE_FAMILIES, uri);
      if (!family) throw unknownResource(uri);
      if (!isEnabled(context.toolsets, family.toolset))
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          offToolset(`Resource ${echo(uri)}`, family.toolset),
        );
      const contents = await family.read(await loadToolDeps(deps, family.needs), uri, context);
      if (!contents) throw unknownResource(uri);
      return { contents };
    }),
  );
  server.setRequestHandler('prompts/list', async () => {
    const { PROMPTS, promptListing } = await catalogue();
    return { prompts: enabled(PROMPTS).map(promptListing) };
  });
  server.setRequestHandler('prompts/get', ({ params }) =>
    answering(deps, 'prompts/get', async () => {
      const { PROMPTS, checkPromptArguments } = await catalogue();
      const prompt = PROMPTS.find((candidate) => candidate.name === params.name);
      if (!prompt)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown prompt ${echo(params.name)}. Call prompts/list to see the available prompts.`,
        );
      if (!isEnabled(context.toolsets, prompt.toolset))
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          offToolset(`Prompt "${prompt.name}"`, prompt.toolset),
        );
      const args = checkPromptArguments(prompt, params.arguments);
      return prompt.render(await loadToolDeps(deps, prompt.needs), args, context);
    }),
  );
  server.setRequestHandler('completion/complete', (request) =>
    answering(deps, 'completion/complete', async () => ({
      completion: await (await catalogue()).completeArgument(
        (slice) => loadToolDeps(deps, slice),
        context,
        request.params.argument,
      ),
    })),
  );
}

/**
 * ToolContext.progress for one tools/call: each message goes out as an `info` log message from
 * the tool and, when the request carried a progress token, as a progress notification. The SDK
 * filters the log message by the level the client asked for: `logging/setLevel` on a 2025
 * connection, the request's own `io.modelcontextprotocol/logLevel` in 2026-07-28 (none asked:
 * none sent). A lost notification is not an error.
 */
export function toolProgress(toolName: string, ctx: ServerContext): (message: string) => void {
  const token = ctx.mcpReq._meta?.progressToken;
  let step = 0;
  return (message) => {
    step += 1;
    ctx.mcpReq.log('info', message, toolName).catch(() => undefined);
    if (token === undefined) return;
    ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } })
      .catch(() => undefined);
  };
}
