/**
 * CORS for `/mcp`, for the browser origins the origin policy allows (origin-policy.ts). A page
 * calling `/mcp` sends `Authorization` and JSON, so its browser first asks with a preflight
 * (`OPTIONS`), then lets the page read the answer only if it names the page's origin. Requests
 * without `Origin` (agents, the SDK, curl) get neither: CORS is a browser's rule, not a check.
 * The origin was allowed before these run; a foreign one was already answered 403.
 */

/** What a client of MCP over HTTP sends beyond the simple headers (the MCP spec's, and auth). */
const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'mcp-session-id',
  'last-event-id',
].join(', ');

/** What a page may read of an answer: the OAuth challenge, the retry time of a 429, the protocol's. */
const EXPOSED_HEADERS = ['www-authenticate', 'retry-after', 'mcp-session-id', 'mcp-protocol-version'].join(
  ', ',
);

/** The answer to a browser's preflight of `POST /mcp` from an allowed origin. */
export function mcpPreflight(origin: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '600',
      vary: 'Origin',
    },
  });
}

/** `response` readable by a page of `origin` (its headers are copied: a fetched response's are immutable). */
export function readableByOrigin(response: Response, origin: string): Response {
  const headers = new Headers(response.headers);
  headers.set('access-control-allow-origin', origin);
  headers.set('access-control-expose-headers', EXPOSED_HEADERS);
  headers.append('vary', 'Origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
