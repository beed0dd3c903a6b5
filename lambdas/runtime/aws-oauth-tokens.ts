import { looksLikeJwt } from '../adapters/oauth/jwt-shape.js';
import type { AccessStore } from '../core/access/access-store.js';
import type { DocumentStore, TokenVerifier } from '../core/ports/index.js';
import type { McpHttpDeps } from '../mcp/deps.js';
import { MCP_PATH } from '../mcp/http/route-http-request.js';
import { EnvironmentError } from './environment.js';
import { OAUTH_TOKENS_ENV, PUBLIC_URL_ENV } from './environment-names.js';

/**
 * The MCP function's side of sign-in on AWS (MERIDIAN_OAUTH_TOKENS=on, ADR 0026): bearer tokens
 * of both kinds, as `serve` gets them from the embedded authorization server (serve-sign-in.ts);
 * the protected-resource metadata is aws-protected-resource.ts's. An API key goes to `access` as before and loads
 * nothing more. The first JWT-shaped bearer loads jose and the token verifier and reads the
 * public key with one GetItem (no KMS: the function needs no decrypt for it); both are kept for
 * the container's life. Until an OAuth function has created the key no token can be valid: a
 * token is then refused and the next one reads again.
 *
 * @example
 * const { tokenVerifier } = awsOauthTokens(environment.publicUrl, store, () => part('access'));
 */
export function awsOauthTokens(
  publicUrl: string | undefined,
  store: DocumentStore,
  access: () => Promise<AccessStore>,
): Required<Pick<McpHttpDeps, 'tokenVerifier'>> {
  if (publicUrl === undefined)
    throw new EnvironmentError([
      `${OAUTH_TOKENS_ENV}=on needs ${PUBLIC_URL_ENV}: access tokens name the MCP URL as their audience and the authorization server by its URL. The stack sets both.`,
    ]);
  const resource = `${publicUrl}${MCP_PATH}`;
  let loading: Promise<TokenVerifier | undefined> | undefined;
  const jwtVerifier = () => {
    loading ??= loadJwtVerifier(publicUrl, resource, store, access).then(
      (verifier) => {
        if (!verifier) loading = undefined;
        return verifier;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return {
    tokenVerifier: {
      authenticate: async (token) => {
        if (!looksLikeJwt(token)) return (await access()).authenticate(token);
        return (await jwtVerifier())?.authenticate(token);
      },
    },
  };
}

async function loadJwtVerifier(
  issuer: string,
  audience: string,
  store: DocumentStore,
  access: () => Promise<AccessStore>,
): Promise<TokenVerifier | undefined> {
  const [{ readOauthPublicJwk }, { JwtTokenVerifier }, { createLocalJWKSet }, accessStore] =
    await Promise.all([
      import('./oauth/stored-oauth-key-item.js'),
      import('../adapters/oauth/jwt-token-verifier.js'),
      import('jose'),
      access(),
    ]);
  const publicJwk = await readOauthPublicJwk(store);
  if (!publicJwk) return undefined;
  return new JwtTokenVerifier({
    keys: createLocalJWKSet({ keys: [publicJwk] }),
    issuer,
    audience,
    access: accessStore,
    apiKeys: accessStore,
  });
}
