import { request as httpRequest } from 'node:http';

/** A response read whole: what `HttpTarget.send` returns. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request over node:http, for what fetch will not send: TRACE and TRACK, a chosen Host
 * header, a Content-Length the body never reaches.
 */
export function sendRaw(
  baseUrl: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolvePromise, reject) => {
    const outgoing = httpRequest(
      new URL(path, baseUrl),
      { method, headers: init.headers, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (typeof value === 'string') headers[name] = value;
          }
          resolvePromise({
            status: incoming.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString(),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}
