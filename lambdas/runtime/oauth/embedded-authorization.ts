import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalJWKSet } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC, errors as oidcErrors } from 'oidc-provider';
import { DocumentStoreOidcAdapter } from '../../adapters/oauth/document-store-oidc-adapter.js';
import { CONSENT_CLAIM, JwtTokenVerifier } from '../../adapters/oauth/jwt-token-verifier.js';
import type { AccessStore } from '../../core/access/access-store.js';
import type { AuditLog } from '../../core/audit/audit-log.js';
import { Administrators } from '../../core/auth/administrators.js';
import type { LocalUsers } from '../../core/auth/local-users.js';
import { scopeForToolsets } from '../../core/auth/toolset-scopes.js';
import type { Clock, DocumentStore, Logger, TokenVerifier } from '../../core/ports/index.js';
import type { ProtectedResource } from '../../mcp/http/protected-resource.js';
import { adminClientConfiguration, handleAdmin } from './admin-routes.js';
import { withDefaultScope } from './default-scope.js';
import { problemPage } from './interaction-pages.js';
import { handleInteraction, INTERACTION_PATH } from './interaction-routes.js';
import { loopbackClientMetadataFetch } from './local-client-metadata-fetch.js';
import { OauthAdministration } from './oauth-administration.js';
import {
  auditedOauthChange,
  beginOauthChange,
  OAUTH_ACTION,
  type PendingOauthChange,
} from './oauth-audit.js';
import type { OauthKeys } from './oauth-keys.js';
import { RegistrationLimit } from './registration-limit.js';
import { handleUpstreamCallback } from './upstream-callback-route.js';
import { UPSTREAM_CALLBACK_PATH, UpstreamSignIn } from './upstream-sign-in.js';
import type { UpstreamSignInConfig } from './upstream-sign-in-config.js';

/** Lifetimes, in seconds. Access tokens are short: a revoked consent stops them within this. */
export const OAUTH_TTL = {
  accessToken: 5 * 60,
  authorizationCode: 60,
  refreshToken: 30 * 24 * 3600,
  grant: 30 * 24 * 3600,
  session: 14 * 24 * 3600,
  interaction: 10 * 60,
} as const;

/** The paths the authorization server answers; everything else stays with the MCP router. */
const OAUTH_PREFIX = '/oauth/';
const AUTHORIZATION_PATH = '/oauth/authorize';
const REGISTRATION_PATH = '/oauth/register';
const OIDC_DISCOVERY = '/.well-known/openid-configuration';
const RFC8414_DISCOVERY = '/.well-known/oauth-authorization-server';

/** oidc-provider's endpoints, by the names its `routes` setting takes. */
const PROVIDER_ROUTES = {
  authorization: AUTHORIZATION_PATH,
  token: '/oauth/token',
  registration: REGISTRATION_PATH,
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  end_session: '/oauth/session/end',
  pushed_authorization_request: '/oauth/par',
  introspection: '/oauth/introspect',
} as const;

const ROUTE_BY_FOLDED_PATH = new Map(
  Object.values(PROVIDER_ROUTES).map((path) => [path.toUpperCase(), path]),
);

/**
 * The endpoint a path reaches, spelled as configured. oidc-provider's router matches paths
 * case-insensitively and with one trailing slash (`/oauth/Register/` registers a client), so a
 * check made here on the exact spelling — the registration limit, its audit record, the default
 * scope — would be skipped by another spelling of the same endpoint. `handle` rewrites the
 * request to this spelling first. (Non-ASCII letters that upper-case to ASCII never match in the
 * router; here they may, which only makes a check apply to a request the router then refuses.)
 */
function providerRoute(path: string): string | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return ROUTE_BY_FOLDED_PATH.get(trimmed.toUpperCase());
}

export interface EmbeddedAuthorizationOptions {
  /** The server's public base URL, `http://127.0.0.1:8787`: the issuer, and the MCP URL's origin. */
  baseUrl: string;
  mcpPath: string;
  store: DocumentStore;
  clock: Clock;
  access: AccessStore;
  users: LocalUsers;
  keys: OauthKeys;
  /** Every toolset: one scope each. */
  toolsets: readonly string[];
  logger: Logger;
  /**
   * Where sign-ins, consents, registrations and revocations are recorded.
   * @default - none: not recorded (MERIDIAN_AUDIT=off)
   */
  audit?: AuditLog;
  /** @default 20 registrations per address per 10 minutes */
  registrationLimit?: { perWindow: number; windowMs: number };
  /** @default 30 */
  refreshReuseGraceSeconds?: number;
  /**
   * Accept Client ID Metadata Documents served over https on this machine, trusting this CA (PEM):
   * for a client under development and for tests. Private and link-local addresses stay refused.
   * @default - none: loopback documents are refused like private ones
   */
  loopbackClientMetadataCa?: string;
  /**
   * Where people sign in: the organization's OpenID Connect issuer instead of `meridian users`
   * passwords.
   * @default - none: local people with passwords
   */
  upstream?: UpstreamSignInConfig;
}

export interface EmbeddedAuthorization {
  issuer: string;
  protectedResource: ProtectedResource;
  /** Bearer tokens of both kinds: this server's access tokens, else API keys through `access`. */
  tokenVerifier: TokenVerifier;
  provider: Provider;
  /**
   * Answers a request on one of the authorization server's paths (true), or leaves it (false).
   * It runs on node:http's request, as oidc-provider (a Koa app) needs.
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /**
   * Registers a client ahead of time (what `meridian clients add` will do): its metadata checked
   * as a registration's is, stored with no expiry. Answers its client id.
   */
  registerClient(metadata: Record<string, unknown> & { client_id: string }): Promise<string>;
}

function remoteAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/** What oidc-provider's revocation policy is shown of the token it is about to destroy. */
interface RevokedToken {
  kind: string;
  grantId?: string;
}

/** How an audited OAuth request ended, from its answer: 2xx done, 4xx refused, else failed. */
function answeredOutcome(res: ServerResponse, createdClientId: string | undefined) {
  if (res.statusCode < 300)
    return { outcome: 'ok' as const, output_resource_ids: createdClientId ? [createdClientId] : [] };
  if (res.statusCode < 500) return { outcome: 'refused' as const, code: `HTTP_${res.statusCode}` };
  return { outcome: 'failed' as const };
}

/**
 * The embedded runtime's authorization server, on oidc-provider (ADR 0013): authorization code
 * with PKCE S256 only, the MCP URL as the one resource (audience) with JWT access tokens, RFC
 * 9207 `iss`, rotating refresh tokens with a short reuse grace, revocation, dynamic registration
 * (stored, rate-limited) and Client ID Metadata Documents (fetched with oidc-provider's own SSRF
 * guard: no private, loopback or link-local address; 2.5 s; size-capped; cached). People sign in
 * with `meridian users` accounts and consent on Meridian's own pages.
 *
 * @example
 * const oauth = createEmbeddedAuthorization({ baseUrl: server.url, mcpPath: '/mcp', ...runtime, users, keys, toolsets, logger });
 */
export function createEmbeddedAuthorization(options: EmbeddedAuthorizationOptions): EmbeddedAuthorization {
  const issuer = options.baseUrl.replace(/\/$/, '');
  const resource = `${issuer}${options.mcpPath}`;
  const scopes = options.toolsets.map((toolset) => scopeForToolsets([toolset]));
  const adapterDeps = {
    store: options.store,
    clock: options.clock,
    refreshReuseGraceSeconds: options.refreshReuseGraceSeconds ?? 30,
  };
  const consentLinks = new DocumentStoreOidcAdapter('ConsentLink', adapterDeps);
  const administration = new OauthAdministration({ ...adapterDeps, access: options.access });
  const auditDeps = { audit: options.audit, clock: options.clock };
  // The audit record of a registration or revocation in flight, by its request, completed once answered.
  const pendingChanges = new WeakMap<IncomingMessage, PendingOauthChange>();
  const registeredClients = new WeakMap<IncomingMessage, string>();
  const configuration: Configuration = {
    adapter: (model: string) => new DocumentStoreOidcAdapter(model, adapterDeps),
    jwks: { keys: [options.keys.signingJwk as never] },
    cookies: { keys: options.keys.cookieKeys },
    // Public clients (no secret) are what MCP clients are; PKCE is required of every client.
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // The one signing key is Ed25519 (oauth-keys.ts); no ID token is issued without `openid`.
      id_token_signed_response_alg: 'EdDSA',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    // The toolset scopes; offline_access is not offered (MCP 2026-07-28): refresh tokens come with the grant type.
    scopes: scopes,
    claims: {},
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: {
        enabled: true,
        // Called once a real token is found, just before it is destroyed: the record goes in
        // pending here (an unknown token changes nothing and leaves nothing), completed in handle().
        allowedPolicy: async (ctx: KoaContextWithOIDC, client: { clientId: string }, token: RevokedToken) => {
          const pending = await beginOauthChange(auditDeps, {
            action: OAUTH_ACTION.tokenRevoke,
            principal: `client:${client.clientId}`,
            client: client.clientId,
            // A boolean, not the kind's name: text values are kept by their length only.
            values: { refresh_token: token.kind === 'RefreshToken' },
            resourceIds: [client.clientId, ...(token.grantId ? [token.grantId] : [])],
          });
          if (pending) pendingChanges.set(ctx.req, pending);
          return true;
        },
      },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => {
          if (indicator !== resource)
            throw new oidcErrors.InvalidTarget(`the only resource here is ${resource}`);
          return {
            scope: scopes.join(' '),
            audience: resource,
            accessTokenTTL: OAUTH_TTL.accessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'EdDSA' } },
          };
        },
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // A client an administrator revoked stays refused, even described by its document again.
        allowClient: async (_ctx: unknown, client: { clientId: string }) =>
          !(await administration.isClientRevoked(client.clientId)),
      },
    } as Configuration['features'],
    // The admin page (/oauth/admin) signs people in as a first-party client of this server.
    ...adminClientConfiguration(issuer),
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // A sign-in through an MCP client outlives the browser session it started in.
    expiresWithSession: async () => false,
    // Browser-based clients (the Inspector, web connectors) call token and registration from their origin.
    clientBasedCORS: () => true,
    extraTokenClaims: async (_ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.grantId) return undefined;
      const link = await consentLinks.find(token.grantId);
      return link ? { [CONSENT_CLAIM]: link.consentId } : undefined;
    },
    findAccount: async (_ctx, sub) =>
      (await options.users.exists(sub)) ? { accountId: sub, claims: () => ({ sub }) } : undefined,
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}` },
    routes: PROVIDER_ROUTES,
    ttl: {
      AccessToken: OAUTH_TTL.accessToken,
      AuthorizationCode: OAUTH_TTL.authorizationCode,
      RefreshToken: OAUTH_TTL.refreshToken,
      Grant: OAUTH_TTL.grant,
      Session: OAUTH_TTL.session,
      Interaction: OAUTH_TTL.interaction,
    },
    ...(options.loopbackClientMetadataCa
      ? { fetch: loopbackClientMetadataFetch(options.loopbackClientMetadataCa) }
      : {}),
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = problemPage('Sign-in failed', `${out.error}: ${out.error_description ?? ''}`);
    },
  };
  const provider = new Provider(issuer, configuration);
  // A revoked grant (revocation endpoint, reused refresh token, expiry) ends its consent at once:
  // access tokens already issued stop working at their next request, not at their expiry.
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC | undefined, grantId: string) => {
    const clientId = ctx?.oidc?.client?.clientId ?? 'unknown';
    void (async () => {
      const link = await consentLinks.find(grantId);
      if (!link?.consentId) return;
      const consentId = String(link.consentId);
      await auditedOauthChange(
        auditDeps,
        {
          action: OAUTH_ACTION.consentRevoke,
          principal: `client:${clientId}`,
          client: clientId,
          resourceIds: [grantId, consentId],
        },
        () => options.access.revokeKey(consentId),
      );
    })().catch((error: unknown) => options.logger.error('oauth grant revocation failed', { error }));
  });
  provider.on('registration_create.success', (ctx: KoaContextWithOIDC, client: { clientId: string }) => {
    registeredClients.set(ctx.req, client.clientId);
  });
  provider.on('server_error', (_ctx: unknown, error: unknown) =>
    options.logger.error('oauth server error', { error }),
  );
  const limit = new RegistrationLimit(options.registrationLimit ?? { perWindow: 20, windowMs: 10 * 60_000 });
  const callback = provider.callback();
  const interactionDeps = {
    provider,
    users: options.users,
    access: options.access,
    resource,
    toolsets: options.toolsets,
    csrfKey: options.keys.csrfKey,
    consentLinks,
    grantTtlSeconds: OAUTH_TTL.grant,
    logger: options.logger,
    ...auditDeps,
    ...(options.upstream
      ? {
          upstream: new UpstreamSignIn({
            config: options.upstream,
            baseUrl: issuer,
            pending: new DocumentStoreOidcAdapter('UpstreamSignIn', adapterDeps),
            pendingTtlSeconds: OAUTH_TTL.interaction,
          }),
        }
      : {}),
  };

  const adminDeps = {
    provider,
    issuer,
    csrfKey: options.keys.csrfKey,
    administration,
    administrators: new Administrators(adapterDeps),
    logger: options.logger,
    ...auditDeps,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = URL.parse(req.url ?? '/', 'http://localhost');
    // Not a path at all (`//%`): the server's own router answers it 400, as without sign-in.
    if (url === null) return false;
    const route = providerRoute(url.pathname);
    if (route !== undefined && route !== url.pathname) req.url = `${route}${url.search}`;
    const path = route ?? url.pathname;
    if (path === RFC8414_DISCOVERY) {
      // RFC 8414 and OIDC discovery describe the same server; oidc-provider serves the latter.
      req.url = OIDC_DISCOVERY;
    } else if (path !== OIDC_DISCOVERY && !path.startsWith(OAUTH_PREFIX)) {
      return false;
    }
    if (path.startsWith(INTERACTION_PATH)) {
      await handleInteraction(interactionDeps, req, res);
      return true;
    }
    if (path === UPSTREAM_CALLBACK_PATH && interactionDeps.upstream) {
      await handleUpstreamCallback({ ...interactionDeps, upstream: interactionDeps.upstream }, req, res);
      return true;
    }
    if (await handleAdmin(adminDeps, req, res)) return true;
    if (path === REGISTRATION_PATH && req.method === 'POST' && !limit.allow(remoteAddress(req))) {
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': String(limit.retryAfterSeconds(remoteAddress(req))),
        'access-control-allow-origin': '*',
      });
      res.end(
        JSON.stringify({
          error: 'temporarily_unavailable',
          error_description: 'Too many registrations from this address; retry later.',
        }),
      );
      return true;
    }
    if (path === REGISTRATION_PATH && req.method === 'POST') {
      // Anyone may register (rate-limited above): the record goes in pending before the client does.
      const pending = await beginOauthChange(auditDeps, {
        action: OAUTH_ACTION.clientRegister,
        principal: 'anonymous',
        client: req.headers['user-agent'] ?? 'unknown',
        values: { address: remoteAddress(req) },
      });
      if (pending) pendingChanges.set(req, pending);
    }
    if (path === AUTHORIZATION_PATH && req.method === 'GET')
      req.url = withDefaultScope(req.url ?? path, scopes);
    await new Promise<void>((resolvePromise) => {
      res.once('finish', resolvePromise);
      res.once('close', resolvePromise);
      callback(req, res);
    });
    await pendingChanges.get(req)?.complete(answeredOutcome(res, registeredClients.get(req)));
    return true;
  }

  return {
    issuer,
    provider,
    protectedResource: { resource, authorizationServers: [issuer], scopesSupported: scopes },
    tokenVerifier: new JwtTokenVerifier({
      keys: createLocalJWKSet({ keys: [options.keys.publicJwk as never] }),
      issuer,
      audience: resource,
      access: options.access,
      apiKeys: options.access,
    }),
    handle,
    async registerClient(metadata) {
      await provider.Client.validate(metadata as never);
      await new DocumentStoreOidcAdapter('Client', adapterDeps).upsert(metadata.client_id, metadata, 0);
      return metadata.client_id;
    },
  };
}
