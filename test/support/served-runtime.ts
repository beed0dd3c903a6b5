import type { Client } from '@modelcontextprotocol/client';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../../lambdas/runtime/node-http-server.js';
import { connectHttpClient } from './mcp-client.js';
import type { TestRuntime } from './test-runtime.js';

/** What a connection asks of the server: `toolsets` goes in the URL as `/mcp?toolsets=time`. */
export interface ConnectOptions {
  toolsets?: readonly string[];
}

/** A client connected with a new API key, and that key. */
export interface ConnectedKey {
  client: Client;
  keyId: string;
  token: string;
}

export interface ServedRuntime {
  /** Base URL of the HTTP server, e.g. http://127.0.0.1:43121 */
  url: string;
  /** The MCP endpoint: `${url}/mcp`. */
  mcpUrl: string;
  /** A new API key labelled `label`, and the SDK's real Client connected with it as a Bearer token. */
  connect(label: string, options?: ConnectOptions): Promise<ConnectedKey>;
  /** Another client for a key already made, e.g. the same key asking for other toolsets. */
  connectToken(token: string, options?: ConnectOptions): Promise<Client>;
  /** Closes every client opened here, then the server, then the runtime. */
  close(): Promise<void>;
}

/**
 * Serves `runtime` over `meridian serve`'s HTTP path (node:http → routeHttpRequest) on a free
 * loopback port, for tests that call tools through the SDK's real Client. It takes the runtime
 * over: `close()` closes it too, after the clients and the server that use it.
 *
 * @example
 * const served = await serveRuntime(await startTestRuntime());
 * const { client } = await served.connect('agent');
 * await okTool(client, 'get_temporal_context', {});
 * await served.close();
 */
export async function serveRuntime(runtime: TestRuntime): Promise<ServedRuntime> {
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    handle: (request) => routeHttpRequest(request, runtime),
    logger: runtime.logger,
  });
  const mcpUrl = `${server.url}/mcp`;
  const clients: Client[] = [];
  const connectToken = async (token: string, options: ConnectOptions = {}) => {
    const query = options.toolsets ? `?toolsets=${options.toolsets.join(',')}` : '';
    const client = await connectHttpClient(`${mcpUrl}${query}`, undefined, {
      authorization: `Bearer ${token}`,
    });
    clients.push(client);
    return client;
  };
  return {
    url: server.url,
    mcpUrl,
    connectToken,
    async connect(label, options) {
      const { token, keyId } = await runtime.newKey(label);
      return { client: await connectToken(token, options), keyId, token };
    },
    async close() {
      for (const client of clients.splice(0)) await client.close();
      await server.close();
      await runtime.close();
    },
  };
}
