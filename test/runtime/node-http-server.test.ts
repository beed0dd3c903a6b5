import { fixedClock } from '../../lambdas/core/ports.js';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../../lambdas/runtime/node-http-server.js';
import { createStderrLogger } from '../../lambdas/runtime/stderr-logger.js';
import { describeMcpHttpTransport } from '../mcp/http-transport-suite.js';
import { startTestRuntime } from '../support/test-runtime.js';

describeMcpHttpTransport('node:http server (meridian serve)', async () => {
  const runtime = await startTestRuntime({
    clock: fixedClock('2026-02-20T15:30:00Z'),
    defaultTimezone: 'America/New_York',
  });
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    handle: (request) => routeHttpRequest(request, runtime),
    logger: createStderrLogger('test'),
  });
  return {
    baseUrl: server.url,
    fetch: (input, init) => fetch(input, init),
    newKey: (options) => runtime.newKey('test', options),
    revokeKey: (keyId) => runtime.access.revokeKey(keyId).then(() => undefined),
    close: async () => {
      await server.close();
      await runtime.close();
    },
  };
});
