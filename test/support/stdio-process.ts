import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type CallToolResult, type ClientEra, newClient } from './mcp-client.js';

export interface StdioProcess {
  client: Client;
  pid: number;
  /** Calls a tool; a JSON-RPC error (e.g. -32603) rejects, as it would for any client. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Closes stdin, as a desktop client does, and waits for the process to exit. */
  close(): Promise<void>;
  /** kill -9: the process gets no chance to release anything. */
  kill(): Promise<void>;
}

/**
 * Starts `meridian stdio` on `dataDir` in a fresh process and connects the SDK's real Client to
 * it, speaking `era` (default: the 2025 initialize handshake).
 */
export async function startStdio(dataDir: string, era: ClientEra = 'legacy'): Promise<StdioProcess> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/meridian.mjs', 'stdio', '--data-dir', dataDir],
    env: { ...(process.env as Record<string, string>), MERIDIAN_TIMEZONE: 'UTC' },
    stderr: 'pipe',
  });
  const client = newClient(era);
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('meridian stdio did not start');
  const gone = async () => {
    // The client's close resolves once the pipes close; the process may still be releasing.
    while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 25));
  };
  return {
    client,
    pid,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await gone();
    },
    kill: async () => {
      process.kill(pid, 'SIGKILL');
      await gone();
      await client.close().catch(() => undefined);
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
