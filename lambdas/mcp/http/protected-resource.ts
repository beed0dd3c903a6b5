import { json } from './http-responses.js';

/**
 * Meridian as an OAuth protected resource (RFC 9728, MCP authorization): what its metadata
 * document says and what its 401/403 challenges point at. Present only where an authorization
 * server issues tokens for this endpoint; without it, /mcp answers API-key challenges as before.
 */
export interface ProtectedResource {
  /** The canonical MCP URL (`https://host/mcp`): tokens must carry it as their audience. */
  resource: string;
  /** Issuer URLs of the authorization servers that issue tokens for it. */
  authorizationServers: readonly string[];
  /** Every scope a token may carry for it (the toolsets' scopes). */
  scopesSupported: readonly string[];
}

export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * Browser-based clients (the Inspector, web connectors) read the metadata and the challenge
 * from another origin: both are public, and the challenge header must be exposed to script.
 */
export const OAUTH_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'WWW-Authenticate',
} as const;

/**
 * The absolute URL of the resource's metadata document: the well-known path with the resource's
 * path appended (RFC 9728 §3.1). Claude refuses a relative one.
 *
 * @example
 * resourceMetadataUrl('https://mcp.example.com/mcp'); // 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
 */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${PROTECTED_RESOURCE_METADATA_PATH}${path}`;
}

/**
 * The `WWW-Authenticate` value of a challenge: where the metadata is and the scopes the request
 * needs, with the OAuth error when a token was presented and refused.
 *
 * @example
 * bearerChallenge(resource, { scope: 'toolset:time', error: 'invalid_token' });
 */
export function bearerChallenge(
  protectedResource: ProtectedResource,
  options: { scope: string; error?: 'invalid_token' | 'insufficient_scope'; description?: string },
): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(protectedResource.resource)}"`];
  if (options.scope) parts.push(`scope="${options.scope}"`);
  if (options.error) parts.push(`error="${options.error}"`);
  if (options.description) parts.push(`error_description="${options.description.replaceAll('"', "'")}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * The metadata document for a GET (or HEAD) of either well-known path (the root one, which
 * clients try when the challenge header was stripped, and the one with the resource's path), a
 * CORS preflight answer for OPTIONS, or undefined for any other path.
 */
export function serveProtectedResourceMetadata(
  request: Request,
  path: string,
  protectedResource: ProtectedResource | undefined,
): Response | undefined {
  if (!protectedResource) return undefined;
  const ownPath = new URL(resourceMetadataUrl(protectedResource.resource)).pathname;
  if (path !== PROTECTED_RESOURCE_METADATA_PATH && path !== ownPath) return undefined;
  if (request.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: {
        ...OAUTH_CORS_HEADERS,
        'access-control-allow-methods': 'GET, OPTIONS',
        'access-control-max-age': '600',
      },
    });
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return json(
      405,
      { error: `Method ${request.method} not allowed: use GET ${path}.` },
      { allow: 'GET, HEAD, OPTIONS' },
    );
  }
  return json(
    200,
    {
      resource: protectedResource.resource,
      authorization_servers: protectedResource.authorizationServers,
      scopes_supported: protectedResource.scopesSupported,
      bearer_methods_supported: ['header'],
      resource_name: 'Meridian',
    },
    { ...OAUTH_CORS_HEADERS, 'cache-control': 'public, max-age=300' },
  );
}
