const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Whether a bearer token has a JWT's shape (three base64url parts): an OAuth access token rather
 * than an API key. A file of its own, without jose, so that the MCP function can route an API key
 * without loading the JWT code.
 *
 * @example
 * looksLikeJwt('mrd_abc'); // false
 */
export function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}
