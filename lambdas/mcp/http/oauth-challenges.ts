import { scopeForToolsets, TOOLSET_SCOPE_PREFIX } from '../../core/auth/toolset-scopes.js';
import { jsonRpcError } from './http-responses.js';
import { bearerChallenge, OAUTH_CORS_HEADERS, type ProtectedResource } from './protected-resource.js';

/** The toolsets a connection asks for in `?toolsets=`, or every scope when it asks for none (or `all`). */
function scopeAskedFor(request: Request, protectedResource: ProtectedResource): string {
  const list = new URL(request.url).searchParams.get('toolsets');
  const names = (list ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const known = new Set(protectedResource.scopesSupported);
  const asked = names.filter((name) => known.has(`${TOOLSET_SCOPE_PREFIX}${name}`));
  return asked.length > 0 && !names.includes('all')
    ? scopeForToolsets(asked)
    : protectedResource.scopesSupported.join(' ');
}

/**
 * The 401 of an endpoint that takes OAuth tokens beside API keys: the challenge names the
 * metadata (absolute URL) and the scopes to ask for, so an MCP client can start the sign-in.
 */
export function oauthUnauthorized(request: Request, protectedResource: ProtectedResource): Response {
  const presented = request.headers.has('authorization');
  const message = presented
    ? 'The bearer token is unknown, expired, revoked or not for this server. Sign in again, or send a valid API key.'
    : 'Sign in (OAuth: see the WWW-Authenticate header) or send "Authorization: Bearer <API key>".';
  return jsonRpcError(401, -32001, message, {
    ...OAUTH_CORS_HEADERS,
    'www-authenticate': bearerChallenge(protectedResource, {
      scope: scopeAskedFor(request, protectedResource),
      ...(presented ? { error: 'invalid_token' as const } : {}),
    }),
  });
}

/** The 403 of a token that lacks scopes: names every scope the request needs, at once. */
export function insufficientScope(
  message: string,
  requiredScope: string,
  protectedResource: ProtectedResource,
): Response {
  return jsonRpcError(403, -32001, message, {
    ...OAUTH_CORS_HEADERS,
    'www-authenticate': bearerChallenge(protectedResource, {
      scope: requiredScope,
      error: 'insufficient_scope',
    }),
  });
}
