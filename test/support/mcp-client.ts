import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

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

/** The JSON error body of an isError result. */
export function errorOf(result: CallToolResult): { code: string; message: string; [key: string]: unknown } {
  const [first] = result.content;
  if (!result.isError || first?.type !== 'text')
    throw new Error(`expected an isError result, got ${JSON.stringify(result)}`);
  return (JSON.parse(first.text) as { error: { code: string; message: string } }).error;
}
