import type { CallToolResult } from '@modelcontextprotocol/server';
import { LOCAL_OWNER, type Principal } from '../core/access/rights.js';
import { scopeForToolsets } from '../core/auth/toolset-scopes.js';
import { DomainError } from '../core/errors.js';
import { callTool } from './call-tool.js';
import type { McpHttpDeps, McpServerDeps, ToolContext } from './deps.js';
import { recordOutcome, refusalByHooks, type ToolCall, type ToolCallOutcome } from './tool-call-hooks.js';
import { findEnabledTool } from './tool-catalogue.js';
import { parseToolsets, type ToolsetSelection } from './toolsets.js';

/*
 * The one sequence every MCP request goes through, over HTTP (node:http and Lambda) and stdio:
 *
 *   per connection (admitConnection):  authenticate → resolve toolsets
 *   per tools/call (runToolCall):       authorise (toolset) → hooks.beforeCall → tool → hooks.afterCall
 *
 * Transports only translate: route-http-request.ts turns a refusal into an HTTP status, stdio
 * (bin/meridian.ts) lets it stop the command. Rights on a calendar or project are decided in one
 * layer, the core services every tool, resource and prompt calls with the caller's principal
 * (CalendarService, RulesService, MemoryService, ProjectMemorySearch, … through
 * AccessStore.requireRight), since only they know which resource a call touches; nothing under
 * lambdas/mcp checks a grant itself (test/mcp/access-layer.test.ts).
 */

/**
 * How a connection says who it is: HTTP presents a bearer token (undefined when it sent none);
 * stdio runs as the local owner, who holds the data dir and may do everything.
 */
export type Credential = { kind: 'bearer'; token: string | undefined } | { kind: 'local-owner' };

/** Toolsets a connection asked for (`?toolsets=`), and where, so a wrong name says what to fix. */
export interface AskedToolsets {
  list: string;
  source: string;
}

async function authenticate(deps: McpHttpDeps, credential: Credential): Promise<Principal> {
  if (credential.kind === 'local-owner') return LOCAL_OWNER;
  const principal =
    credential.token === undefined ? undefined : await deps.tokenVerifier.authenticate(credential.token);
  if (!principal) {
    throw new DomainError(
      'UNAUTHENTICATED',
      credential.token === undefined
        ? 'No bearer token was presented.'
        : 'The bearer token is unknown or revoked.',
    );
  }
  return principal;
}

/**
 * The toolsets a connection enables: what it asked for, else its API key's default, else the
 * server's (`serve|stdio --toolsets`), else all. Names are checked against the catalogue's toolsets
 * (no tool is loaded).
 */
async function resolveToolsets(
  deps: McpServerDeps,
  principal: Principal,
  asked: AskedToolsets | undefined,
): Promise<ToolsetSelection> {
  const known = async () => [...(await deps.tools.toolsetNames())];
  if (principal.kind === 'api-key' && principal.consentedToolsets) {
    return withinConsent(
      principal.consentedToolsets,
      asked && parseToolsets(asked.list, await known(), asked.source),
    );
  }
  if (asked) return parseToolsets(asked.list, await known(), asked.source);
  if (principal.kind === 'api-key' && principal.toolsets) {
    // A stored name may predate a renamed toolset: say how to fix the key, not the URL.
    const source = `this API key's default toolsets (the owner changes them with \`meridian keys toolsets ${principal.keyId} LIST\`)`;
    return parseToolsets(principal.toolsets.join(','), await known(), source);
  }
  return deps.defaultToolsets;
}

/**
 * An OAuth token's connection: the toolsets it asked for if the person consented to all of them
 * (FORBIDDEN naming every scope needed otherwise, which HTTP answers as 403 insufficient_scope),
 * else all it was consented.
 */
function withinConsent(consented: readonly string[], asked: ToolsetSelection): ToolsetSelection {
  const wanted = asked ?? consented;
  const missing = wanted.filter((toolset) => !consented.includes(toolset));
  if (asked === undefined || missing.length === 0) return wanted;
  throw new DomainError(
    'FORBIDDEN',
    `This sign-in was not consented the toolsets ${missing.join(', ')}. Sign in again and approve them, or connect without them.`,
    { required_scope: scopeForToolsets(wanted), missing_toolsets: missing, http_status: 403 },
  );
}

/**
 * Admits a connection: who it is and which toolsets it enables, as the context its tools run
 * in. Throws UNAUTHENTICATED (no or a bad token), STORAGE_ERROR (the verifier could not tell;
 * retry) or INVALID_INPUT (an unknown toolset name, with the known ones).
 *
 * @example
 * const context = await admitConnection(runtime, { kind: 'bearer', token }, { list: 'time', source: '?toolsets=' });
 * createMcpServer(runtime, context);
 */
export async function admitConnection(
  deps: McpHttpDeps,
  credential: Credential,
  asked?: AskedToolsets,
): Promise<ToolContext> {
  const principal = await authenticate(deps, credential);
  return { principal, toolsets: await resolveToolsets(deps, principal, asked) };
}

/**
 * One tools/call: the tool if the connection's toolsets enable it (-32602 otherwise), then the
 * hooks (`deps.hooks`), which may refuse it, then the tool; the hooks then see how it ended.
 *
 * @example
 * server.setRequestHandler(CallToolRequestSchema, (request) =>
 *   runToolCall(deps, context, request.params.name, request.params.arguments));
 */
export async function runToolCall(
  deps: McpServerDeps,
  context: ToolContext,
  name: string,
  args: unknown,
): Promise<CallToolResult> {
  const tool = await findEnabledTool(deps.tools, name, context.toolsets);
  const hooks = deps.hooks ?? [];
  const call: ToolCall = {
    tool: tool.name,
    principal: context.principal,
    arguments: args,
    annotations: tool.annotations,
    ...(context.requestId ? { requestId: context.requestId } : {}),
    ...(context.client ? { client: context.client } : {}),
  };
  let outcome: ToolCallOutcome;
  try {
    const refusal = await refusalByHooks(hooks, call, deps.logger);
    outcome = {
      result: refusal ?? (await callTool(tool, args, deps, context, deps.logger)),
    };
  } catch (fault) {
    outcome = { fault };
  }
  await recordOutcome(hooks, call, outcome, deps.logger);
  if ('fault' in outcome) throw outcome.fault;
  return outcome.result;
}
