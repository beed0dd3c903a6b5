import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuditLog } from '../core/audit/audit-log.js';
import type { Logger } from '../core/ports/index.js';
import { MCP_PATH } from '../mcp/http/route-http-request.js';
import { TOOLSET_LOADERS } from '../mcp/tools/deferred-catalogue.js';
import { awsPlatform } from './aws-platform.js';
import { type Environment, EnvironmentError, requireSettings } from './environment.js';
import { PUBLIC_URL_ENV } from './environment-names.js';
import type { EmbeddedAuthorization } from './oauth/embedded-authorization.js';
import type { UpstreamSignInConfig } from './oauth/upstream-sign-in-config.js';
import { wireParts } from './wiring.js';

/** The OAuth function's one job: answer the authorization server's paths on node:http's objects. */
export interface AwsOauth {
  /** The issuer, MERIDIAN_PUBLIC_URL. */
  issuer: string;
  /** Answers a request on one of the authorization server's paths (true), or leaves it (false). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
}

/**
 * Where people sign in: the organization's issuer when the stack names one, its client secret
 * read from Secrets Manager when given as an ARN; else undefined (local people, `meridian users`).
 */
async function upstreamSignIn(signIn: Environment['signIn']): Promise<UpstreamSignInConfig | undefined> {
  if (!signIn) return undefined;
  const { issuer, clientId, clientSecretArn } = signIn;
  let clientSecret = signIn.clientSecret;
  if (clientSecret === undefined && clientSecretArn !== undefined) {
    const { readSecretString } = await import('./aws-secret-string.js');
    clientSecret = await readSecretString(clientSecretArn);
  }
  return { issuer, clientId, ...(clientSecret === undefined ? {} : { clientSecret }) };
}

/**
 * Composition root of the OAuth function (ADR 0026): the embedded runtime's authorization server
 * (oidc-provider, ADR 0013) on the deployed table, with the issuer MERIDIAN_PUBLIC_URL and its keys
 * in the table (stored-oauth-keys.ts) under the data key. At cold start only the settings are
 * checked; the first request builds the server — the keys (one GetItem, one KMS Decrypt, or their
 * creation), API keys and users from the wiring table, the upstream client secret — and it is
 * kept for the container's life. A first request that fails to build it (KMS unreachable) leaves
 * the next one to try again.
 *
 * @example
 * const oauth = createAwsOauth(processEnvironment(), logger);
 * await oauth.handle(req, res); // false: not one of its paths
 */
export function createAwsOauth(environment: Environment, logger: Logger): AwsOauth {
  requireSettings(environment, ['tableName', 'dataKeyArn']);
  const { publicUrl } = environment;
  if (publicUrl === undefined)
    throw new EnvironmentError([
      `${PUBLIC_URL_ENV} is not set: the authorization server's issuer is the URL MCP clients reach Meridian at (https://<host>, no path). The stack sets it from the API's URL.`,
    ]);
  const platform = awsPlatform(environment, logger);
  const part = wireParts(platform);
  // Sign-ins, consents, registrations and revocations, in the log every function appends to.
  const audit = environment.audit
    ? new AuditLog({ store: platform.store, clock: platform.clock })
    : undefined;

  const build = async (): Promise<EmbeddedAuthorization> => {
    const [{ createEmbeddedAuthorization }, { loadOrCreateStoredOauthKeys }, { LocalUsers }] =
      await Promise.all([
        import('./oauth/embedded-authorization.js'),
        import('./oauth/stored-oauth-keys.js'),
        import('../core/auth/local-users.js'),
      ]);
    const [keys, access, upstream] = await Promise.all([
      loadOrCreateStoredOauthKeys(platform),
      part('access'),
      upstreamSignIn(environment.signIn),
    ]);
    return createEmbeddedAuthorization({
      baseUrl: publicUrl,
      mcpPath: MCP_PATH,
      store: platform.store,
      clock: platform.clock,
      access,
      users: new LocalUsers({ store: platform.store, clock: platform.clock }),
      keys,
      // The toolsets' names without loading their tools (the bundle keeps them out).
      toolsets: Object.keys(TOOLSET_LOADERS),
      logger,
      ...(audit ? { audit } : {}),
      ...(upstream ? { upstream } : {}),
    });
  };
  let building: Promise<EmbeddedAuthorization> | undefined;
  const authorization = () => {
    building ??= build().catch((error: unknown) => {
      building = undefined;
      throw error;
    });
    return building;
  };
  const publicOrigin = new URL(publicUrl);
  return {
    issuer: publicUrl,
    handle: async (req, res) => {
      // oidc-provider writes its endpoints' URLs from the request's Host and scheme. Behind API
      // Gateway (and CloudFront) those are the API's own host, not the one clients reach: the
      // request is taken as addressed to the public URL, whatever Host it came with.
      req.headers.host = publicOrigin.host;
      Object.assign(req.socket, { encrypted: publicOrigin.protocol === 'https:' });
      return (await authorization()).handle(req, res);
    },
  };
}
