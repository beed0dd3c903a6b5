/**
 * An authorization request (`/oauth/authorize?…`) that names no scope, given every toolset's
 * scope. MCP clients omit `scope` when neither the challenge nor the metadata gave them one (and
 * the conformance suite's authorization-code scenario always does); the consent page then offers
 * every toolset, but oidc-provider grants only scopes that were requested, and a request for none
 * would end in access_denied after the person approved. Other URLs come back unchanged.
 *
 * @example
 * withDefaultScope('/oauth/authorize?client_id=c', ['toolset:time']); // '/oauth/authorize?client_id=c&scope=toolset%3Atime'
 */
export function withDefaultScope(url: string, scopes: readonly string[]): string {
  const parsed = new URL(url, 'http://localhost');
  if (parsed.searchParams.get('scope')?.trim()) return url;
  parsed.searchParams.set('scope', scopes.join(' '));
  return `${parsed.pathname}${parsed.search}`;
}
