import { fixedClock } from '../../lambdas/core/ports.js';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../../lambdas/runtime/node-http-server.js';
import { describeMcpHttpTransport } from '../mcp/http-transport-suite.js';
import { sendRaw } from '../support/raw-http.js';
import { startTestRuntime } from '../support/test-runtime.js';

const ALLOWED_ORIGIN = 'https://app.example.com';

describeMcpHttpTransport('node:http server (meridian serve)', async () => {
  const runtime = await startTestRuntime({
    clock: fixedClock('2026-02-20T15:30:00Z'),
    defaultTimezone: 'America/New_York',
  });
  let errors = 0;
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    handle: (request) =>
      routeHttpRequest(request, runtime, { allowedOrigins: [ALLOWED_ORIGIN], loopback: true }),
    logger: { info: () => undefined, warn: () => undefined, error: () => void (errors += 1) },
  });
  return {
    baseUrl: server.url,
    fetch: (input, init) => fetch(input, init),
    allowedOrigin: ALLOWED_ORIGIN,
    send: (method, path, init) => sendRaw(server.url, method, path, init),
    loggedErrors: () => errors,
    newKey: () => runtime.newKey(),
    revokeKey: (keyId) => runtime.access.revokeKey(keyId).then(() => undefined),
    close: async () => {
      await server.close();
      await runtime.close();
    },
  };
});
