import { join } from 'node:path';
import { loadOrCreateKeyFile } from '../../adapters/encryption/local-key-file.js';
import { LocalUsers } from '../../core/auth/local-users.js';
import type { McpHttpDeps } from '../../mcp/deps.js';
import type { OriginPolicy } from '../../mcp/http/origin-policy.js';
import { MCP_PATH } from '../../mcp/http/route-http-request.js';
import { TOOLSET_NAMES } from '../../mcp/tools/index.js';
import type { EmbeddedRuntime } from '../embedded.js';
import { SIGN_IN_CLIENT_SECRET_ARN_ENV, SIGN_IN_CLIENT_SECRET_ENV } from '../environment-names.js';
import type { NodeIntercept } from '../node-http-server.js';
import { createEmbeddedAuthorization, type EmbeddedAuthorization } from './embedded-authorization.js';
import { oauthIntercept } from './oauth-intercept.js';
import { oauthKeysFrom } from './oauth-keys.js';

/**
 * `meridian serve`'s sign-in: the authorization server over the runtime's table, its keys derived
 * from `oauth.key` in the data dir. The issuer needs the listen address, which is known only once
 * the port is open (`--port 0`): `intercept` is given to the HTTP server first, `attach` makes it
 * live, and `httpDeps` adds the bearer check and the challenges to the MCP router's deps.
 *
 * @example
 * const signIn = await prepareSignIn(runtime, settings.dataDir, policy);
 * const server = await startHttpServer({ ..., intercept: signIn.intercept, handle: (r) => routeHttpRequest(r, signIn.httpDeps(deps), policy) });
 * signIn.attach(server.url);
 */
export async function prepareSignIn(runtime: EmbeddedRuntime, dataDir: string, policy: OriginPolicy) {
  const keys = oauthKeysFrom(await loadOrCreateKeyFile(join(dataDir, 'oauth.key')));
  // MERIDIAN_PUBLIC_URL, checked when the environment was parsed.
  const publicUrl = runtime.environment.publicUrl;
  const signIn = runtime.environment.signIn;
  if (signIn?.clientSecretArn)
    throw new Error(
      `${SIGN_IN_CLIENT_SECRET_ARN_ENV} is read by the AWS functions only: for \`meridian serve\` set ${SIGN_IN_CLIENT_SECRET_ENV} instead.`,
    );
  const signInConfig = signIn && {
    issuer: signIn.issuer,
    clientId: signIn.clientId,
    ...(signIn.clientSecret ? { clientSecret: signIn.clientSecret } : {}),
  };
  let authorization: EmbeddedAuthorization | undefined;
  const intercept: NodeIntercept = oauthIntercept(
    () => authorization,
    policy,
    (error) => runtime.logger.error('oauth request failed', { error }),
  );
  return {
    intercept,
    attach(listenUrl: string): EmbeddedAuthorization {
      authorization = createEmbeddedAuthorization({
        baseUrl: publicUrl ?? listenUrl,
        mcpPath: MCP_PATH,
        store: runtime.store,
        clock: runtime.clock,
        access: runtime.access,
        users: new LocalUsers({ store: runtime.store, clock: runtime.clock }),
        keys,
        toolsets: TOOLSET_NAMES,
        logger: runtime.logger,
        ...(runtime.audit ? { audit: runtime.audit } : {}),
        // MERIDIAN_SIGN_IN_*: people sign in at the organization's issuer instead of with passwords.
        ...(signInConfig ? { upstream: signInConfig } : {}),
      });
      return authorization;
    },
    /** The router's deps with tokens and challenges once attached; API keys only before. */
    httpDeps<Deps extends McpHttpDeps>(deps: Deps): Deps {
      if (!authorization) return deps;
      return {
        ...deps,
        tokenVerifier: authorization.tokenVerifier,
        protectedResource: authorization.protectedResource,
      };
    },
  };
}
