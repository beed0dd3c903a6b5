import { startReverseProxy } from './reverse-proxy.js';

/**
 * A reverse proxy on 127.0.0.1 that adds `Authorization` and forwards everything else as sent —
 * Host and Origin included, so DNS-rebinding checks still see what the client sent. For clients
 * that cannot send a header, like the MCP conformance suite.
 */
export function startAuthProxy(target: string, authorization: string) {
  return startReverseProxy(target, { headers: (headers) => ({ ...headers, authorization }) });
}
