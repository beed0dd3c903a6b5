import {
  Client,
  type CallToolResult as SdkCallToolResult,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { createMcpServer } from '../../lambdas/mcp/create-mcp-server.js';
import { takesFormat } from '../../lambdas/mcp/tool-catalogue.js';
import { TOOLSETS } from '../../lambdas/mcp/tools/index.js';
import type { TestRuntime } from './test-runtime.js';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** A tool's structuredContent as tests read it: field by field, checked by their assertions. */
// biome-ignore lint/suspicious/noExplicitAny: structured tool output inspected dynamically in assertions
export type ToolOutput = Record<string, any>;

/**
 * A tools/call result as Meridian answers it: structuredContent is always an object. (The SDK
 * types it `unknown`: 2026-07-28 allows any JSON value there.)
 */
export type CallToolResult = SdkCallToolResult & { structuredContent?: ToolOutput };

/**
 * Which protocol era a test client speaks: `legacy` is the 2025 initialize handshake (2025-11-25,
 * or the versions given), `modern` is 2026-07-28 pinned (no initialize, `_meta` on every request).
 */
export type ClientEra = 'legacy' | 'modern' | { legacy: string[] };

/** The SDK Client for one era. */
export function newClient(era: ClientEra = 'legacy', name = 'meridian-test'): Client {
  const info = { name, version: '1.0.0' };
  if (era === 'modern') return new Client(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  if (era === 'legacy') return new Client(info);
  return new Client(info, { supportedProtocolVersions: era.legacy });
}

/** The SDK's real Client over Streamable HTTP, optionally through a custom fetch (e.g. into Lambda). */
export async function connectHttpClient(
  mcpUrl: string,
  fetch?: FetchLike,
  headers?: Record<string, string>,
  era: ClientEra = 'legacy',
) {
  const client = newClient(era);
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    ...(fetch ? { fetch } : {}),
    ...(headers ? { requestInit: { headers } } : {}),
  });
  await client.connect(transport);
  return client;
}

/** The SDK's real Client connected in memory to a server over `runtime`, as the local owner. */
export async function connectInMemory(runtime: TestRuntime, name = 'meridian-test') {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(runtime, { principal: LOCAL_OWNER }).connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** A tool call's whole result, an isError one included: `callTool(agent, 'list_calendars', {})`. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Tools that answer TOON text by default and structuredContent only with `format: "json"`. */
const FORMAT_TOOLS = new Set(
  Object.values(TOOLSETS)
    .flat()
    .filter(takesFormat)
    .map((tool) => tool.name),
);

/**
 * A successful tool call's structuredContent; throws with the tool's error text otherwise, so a
 * failing step names itself: `(await okTool(agent, 'create_calendar', { summary: 'Work' })).calendar_id`.
 * A tool that takes `format` is asked for "json" unless the call names one, as a program that
 * needs structured content asks (a TOON answer is text only).
 */
export async function okTool<T = ToolOutput>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const asked = FORMAT_TOOLS.has(name) && !('format' in args) ? { ...args, format: 'json' } : args;
  return structuredOf<T>(await callTool(client, name, asked), name);
}

/** A tool result's structuredContent, for results from any client; throws on an isError result. */
export function structuredOf<T = ToolOutput>(result: CallToolResult, name = 'tool'): T {
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** The JSON error body of an isError result. */
export function errorOf(result: SdkCallToolResult): {
  code: string;
  message: string;
  [key: string]: unknown;
} {
  const [first] = result.content;
  if (!result.isError || first?.type !== 'text')
    throw new Error(`expected an isError result, got ${JSON.stringify(result)}`);
  return (JSON.parse(first.text) as { error: { code: string; message: string } }).error;
}
