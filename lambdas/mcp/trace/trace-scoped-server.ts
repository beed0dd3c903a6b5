import type { Server, Transport } from '@modelcontextprotocol/server';
import { traceContextOf } from './trace-context.js';
import { inTraceScope } from './trace-scope.js';

/**
 * Makes each message `server` receives run in its own trace scope (trace-scope.ts), for
 * transports that carry many requests on one connection (stdio). The SDK's protocol sets the
 * transport's `onmessage` in `connect`; wrapping it afterwards is the one place that sees every
 * message before its handler starts — the stdio entry queues messages and feeds them from one
 * loop, so a scope set around its own callback would stick to the first request of a burst.
 * HTTP needs none of this: the router scopes the whole request (route-http-request.ts).
 *
 * @example
 * serveStdio(() => traceScopedServer(createMcpServer(deps, context)));
 */
export function traceScopedServer(server: Server): Server {
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    if (!deliver) return;
    transport.onmessage = (message, extra) =>
      inTraceScope(traceContextOf(message), () => deliver.call(transport, message, extra));
  };
  return server;
}
