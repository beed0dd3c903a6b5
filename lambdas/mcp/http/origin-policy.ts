import { jsonRpcError } from './http-responses.js';

/**
 * Which browsers may call the server. A browser page sends `Origin`; other clients (agents, the
 * SDK, curl) send none and are let through — the API key is their check. The Streamable HTTP
 * spec requires servers to validate Origin, because a page on any site can otherwise drive a
 * local server through DNS rebinding.
 */
export interface OriginPolicy {
  /** Origins (`scheme://host[:port]`) whose pages may call the server, e.g. a web client's. */
  allowedOrigins: readonly string[];
  /**
   * The server listens on a loopback address (`meridian serve` by default). Loopback origins are
   * then allowed, and the Host header must name a loopback host or an allowed origin's host: a
   * rebound domain (evil.example.com → 127.0.0.1) arrives with its own name in Host.
   */
  loopback: boolean;
}

/** No browser origin allowed, Host not checked: the Lambda behind API Gateway without configuration. */
export const NO_BROWSER_ORIGINS: OriginPolicy = { allowedOrigins: [], loopback: false };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a listen address or host name is loopback-only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  // An IPv4 literal in 127/8, not any name that starts with "127." (127.0.0.1.evil.example.com).
  return LOOPBACK_HOSTS.has(name) || /^127(\.\d{1,3}){3}$/.test(name) || name.endsWith('.localhost');
}

function hostnameOf(hostHeader: string): string {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return hostHeader;
  }
}

const ORIGIN_HELP =
  'Allow a browser origin with --allowed-origins or MERIDIAN_ALLOWED_ORIGINS (comma-separated, e.g. "https://app.example.com").';

/**
 * A 403 for a request from a foreign browser origin or, on loopback, addressed to a foreign
 * host; undefined when the request may proceed. Checked before anything else, for every path.
 *
 * @example
 * refuseForeignRequest(new Request('http://127.0.0.1/mcp', { headers: { origin: 'http://evil.example.com' } }),
 *   { allowedOrigins: [], loopback: true })?.status; // 403
 */
export function refuseForeignRequest(request: Request, policy: OriginPolicy): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin !== null && !originAllowed(origin, policy)) {
    return jsonRpcError(403, -32000, `Origin ${origin} is not allowed. ${ORIGIN_HELP}`);
  }
  const host = request.headers.get('host');
  if (policy.loopback && host !== null && !hostAllowed(hostnameOf(host), policy)) {
    return jsonRpcError(
      403,
      -32000,
      `Host ${host} is not allowed: this server listens on loopback and answers only localhost, 127.0.0.1 or [::1]. ${ORIGIN_HELP}`,
    );
  }
  return undefined;
}

function originAllowed(origin: string, policy: OriginPolicy): boolean {
  if (policy.allowedOrigins.includes(origin)) return true;
  if (!policy.loopback) return false;
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage
  }
}

function hostAllowed(hostname: string, policy: OriginPolicy): boolean {
  if (isLoopbackHost(hostname)) return true;
  return policy.allowedOrigins.some((origin) => new URL(origin).hostname === hostname);
}

/**
 * Parses a comma-separated list of origins, as given to `--allowed-origins` or
 * `MERIDIAN_ALLOWED_ORIGINS`; throws naming `source` and an example when one is not an origin.
 *
 * @example
 * parseAllowedOrigins('https://app.example.com, http://localhost:5173', '--allowed-origins');
 */
export function parseAllowedOrigins(text: string | undefined, source: string): string[] {
  const items = (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.map((item) => {
    let url: URL | undefined;
    try {
      url = new URL(item);
    } catch {
      url = undefined;
    }
    const isOrigin =
      url !== undefined && /^https?:$/.test(url.protocol) && url.origin === item.replace(/\/$/, '');
    if (!isOrigin) {
      throw new Error(
        `${source}: "${item}" is not an origin. Expected scheme://host[:port] with no path, e.g. "https://app.example.com".`,
      );
    }
    return url!.origin;
  });
}
