import type { IncomingMessage, ServerResponse } from 'node:http';
import { type OriginPolicy, refuseForeignRequest } from '../../mcp/http/origin-policy.js';
import type { NodeIntercept } from '../node-http-server.js';
import type { EmbeddedAuthorization } from './embedded-authorization.js';

/**
 * The authorization server's paths for `meridian serve`, behind the same Host check as /mcp on
 * loopback (a rebound domain does not get a sign-in page). Origin is not checked: browser-based
 * clients call discovery, registration and token from their own origin (CORS), and the pages'
 * forms carry their own CSRF token.
 *
 * @example
 * startHttpServer({ ..., intercept: oauthIntercept(() => oauth, policy) });
 */
export function oauthIntercept(
  authorization: () => EmbeddedAuthorization | undefined,
  policy: OriginPolicy,
  onError: (error: unknown) => void,
): NodeIntercept {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const oauth = authorization();
    if (!oauth) return false;
    const host = req.headers.host;
    if (policy.loopback && host) {
      const refused = refuseForeignRequest(new Request('http://localhost/', { headers: { host } }), policy);
      if (
        refused &&
        (req.url ?? '').match(/^\/(oauth\/|\.well-known\/(openid-configuration|oauth-authorization-server))/)
      ) {
        res.writeHead(refused.status, Object.fromEntries(refused.headers));
        res.end(await refused.text());
        return true;
      }
    }
    try {
      return await oauth.handle(req, res);
    } catch (error) {
      onError(error);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'server_error' }));
      }
      return true;
    }
  };
}
