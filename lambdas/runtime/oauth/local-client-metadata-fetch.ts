import { request } from 'node:https';
import { isLoopbackHost } from '../../mcp/http/origin-policy.js';

/**
 * The fetch oidc-provider reads Client ID Metadata Documents with, when the embedded server is
 * told to accept documents served on this machine (a client under development, a test): a
 * loopback https URL is fetched trusting `ca`, with the same time and size bounds; every other URL
 * goes to the global fetch with oidc-provider's options untouched — its SSRF guard (no private,
 * loopback or link-local address) still applies there. Private network addresses stay refused.
 */
export function loopbackClientMetadataFetch(ca: string): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit & { dispatcher?: unknown } = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (!isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''))) return fetch(input, init);
    return new Promise<Response>((resolvePromise, reject) => {
      const outgoing = request(
        url,
        { method: 'GET', ca, headers: { accept: 'application/json' } },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(incoming.headers))
              if (typeof value === 'string') headers.set(name, value);
            resolvePromise(
              new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 502, headers }),
            );
          });
          incoming.on('error', reject);
        },
      );
      init.signal?.addEventListener('abort', () =>
        outgoing.destroy(new Error('client metadata fetch timed out')),
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  }) as typeof fetch;
}
