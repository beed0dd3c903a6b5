import { randomBytes } from 'node:crypto';
import { AuditLog } from '../../lambdas/core/audit/audit-log.js';
import { LocalUsers } from '../../lambdas/core/auth/local-users.js';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { TOOLSET_NAMES } from '../../lambdas/mcp/tools/index.js';
import { startHttpServer } from '../../lambdas/runtime/node-http-server.js';
import {
  createEmbeddedAuthorization,
  type EmbeddedAuthorization,
  type EmbeddedAuthorizationOptions,
} from '../../lambdas/runtime/oauth/embedded-authorization.js';
import { oauthIntercept } from '../../lambdas/runtime/oauth/oauth-intercept.js';
import { type OauthKeys, oauthKeysFrom } from '../../lambdas/runtime/oauth/oauth-keys.js';
import { startTestRuntime, type TestRuntime } from './test-runtime.js';

export interface ServedSignIn {
  runtime: TestRuntime;
  users: LocalUsers;
  oauth: EmbeddedAuthorization;
  /** The audit log the sign-in records its changes in, as `meridian serve`'s does (MERIDIAN_AUDIT=on). */
  audit: AuditLog;
  /** The server's OAuth keys (its CSRF key: a form posted by hand, as an attacker with the page would). */
  keys: OauthKeys;
  /** Base URL, the issuer: http://127.0.0.1:<port> */
  url: string;
  mcpUrl: string;
  close(): Promise<void>;
}

/**
 * `meridian serve`'s HTTP path with the embedded authorization server in front (as bin/meridian.ts
 * wires it): MCP on /mcp taking API keys and access tokens, the sign-in on /oauth/…, on a free
 * loopback port, over a fresh test runtime.
 */
export async function serveWithSignIn(
  options: Partial<
    Pick<
      EmbeddedAuthorizationOptions,
      'registrationLimit' | 'refreshReuseGraceSeconds' | 'clock' | 'loopbackClientMetadataCa' | 'upstream'
    >
  > = {},
): Promise<ServedSignIn> {
  const runtime = await startTestRuntime();
  const users = new LocalUsers({ store: runtime.store, clock: runtime.clock });
  const audit = new AuditLog({ store: runtime.store, clock: runtime.clock });
  let oauth: EmbeddedAuthorization | undefined;
  const keys = oauthKeysFrom(randomBytes(32));
  const policy = { allowedOrigins: [], loopback: true };
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    logger: runtime.logger,
    handle: (request) =>
      routeHttpRequest(
        request,
        { ...runtime, tokenVerifier: oauth!.tokenVerifier, protectedResource: oauth!.protectedResource },
        policy,
      ),
    intercept: oauthIntercept(
      () => oauth,
      policy,
      (error) => console.error(error),
    ),
  });
  oauth = createEmbeddedAuthorization({
    baseUrl: server.url,
    mcpPath: '/mcp',
    store: runtime.store,
    clock: runtime.clock,
    access: runtime.access,
    users,
    keys,
    toolsets: TOOLSET_NAMES,
    audit,
    logger: { info: () => undefined, warn: () => undefined, error: (m, f) => console.error(m, f) },
    ...options,
  });
  return {
    runtime,
    users,
    oauth,
    audit,
    keys,
    url: server.url,
    mcpUrl: `${server.url}/mcp`,
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}
