import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { createMcpServer } from '../../lambdas/mcp/create-mcp-server.js';
import type { TestRuntime } from './test-runtime.js';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** A tool's structuredContent as tests read it: field by field, checked by their assertions. */
// biome-ignore lint/suspicious/noExplicitAny: structured tool output inspected dynamically in assertions
export type ToolOutput = Record<string, any>;

/** The SDK's real Client over Streamable HTTP, optionally through a custom fetch (e.g. into Lambda). */
export async function connectHttpClient(mcpUrl: string, fetch?: FetchLike, headers?: Record<string, string>) {
  const client = new Client({ name: 'meridian-test', version: '1.0.0' });
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

/**
 * A successful tool call's structuredContent; throws with the tool's error text otherwise, so a
 * failing step names itself: `(await okTool(agent, 'create_calendar', { summary: 'Work' })).calendar_id`.
 */
export async function okTool<T = ToolOutput>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  return structuredOf<T>(await callTool(client, name, args), name);
}

/** A tool result's structuredContent, for results from any client; throws on an isError result. */
export function structuredOf<T = ToolOutput>(result: CallToolResult, name = 'tool'): T {
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** The JSON error body of an isError result. */
export function errorOf(result: CallToolResult): { code: string; message: string; [key: string]: unknown } {
  const [first] = result.content;
  if (!result.isError || first?.type !== 'text')
    throw new Error(`expected an isError result, got ${JSON.stringify(result)}`);
  return (JSON.parse(first.text) as { error: { code: string; message: string } }).error;
}
