import { scopeOfToolset } from '../core/auth/toolset-scopes.js';
import type { ProtectedResource } from '../mcp/http/protected-resource.js';
import { MCP_PATH } from '../mcp/http/route-http-request.js';
import { TOOLSET_LOADERS } from '../mcp/tools/deferred-catalogue.js';
import type { Environment } from './environment.js';

/**
 * The MCP function as an OAuth protected resource (RFC 9728), from MERIDIAN_PUBLIC_URL, the
 * host-root URL the stack sets from its API: the resource is `<url>/mcp`, and its authorization
 * server is Meridian's own, on the same host (the sign-in function behind `/oauth/` and the
 * authorization server's metadata). The well-known documents and the 401's `resource_metadata`
 * then name absolute URLs at the host root. Undefined without the variable: API-key challenges
 * only, as before. The toolset names come from the deferred loaders, which load no tool.
 *
 * @example
 * awsProtectedResource({ ...environment, publicUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com' })?.resource;
 * // 'https://abc.execute-api.eu-west-1.amazonaws.com/mcp'
 */
export function awsProtectedResource(
  environment: Pick<Environment, 'publicUrl'>,
): ProtectedResource | undefined {
  const { publicUrl } = environment;
  if (publicUrl === undefined) return undefined;
  return {
    resource: `${publicUrl}${MCP_PATH}`,
    authorizationServers: [publicUrl],
    scopesSupported: Object.keys(TOOLSET_LOADERS).map(scopeOfToolset),
  };
}
