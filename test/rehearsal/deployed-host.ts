import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loopbackCertificate } from '../support/loopback-certificate.js';
import type { FetchLike } from '../support/mcp-client.js';

/**
 * The deployed host name, answered by the rehearsal's front: what DNS and TLS do for a deployment.
 *
 * The functions know themselves by the URL the stack gives them (MERIDIAN_PUBLIC_URL,
 * `https://<api id>.execute-api.<region>.amazonaws.com`): it is the OAuth issuer, the MCP
 * resource, and every redirect and link the pages write. A client that follows them must reach
 * that host. The MCP client's fetch sends the host's requests to the front (path and query
 * unchanged); the browser resolves the host name to a TLS endpoint here (Chromium's
 * `--host-resolver-rules`, a self-signed certificate) that passes each request to the front as it
 * came, so that the pages run at the https origin the host's `Secure` cookies and redirects name.
 * (Playwright's request routing cannot stand in: it does not see the requests a redirect makes.)
 */
export class DeployedHost {
  private constructor(
    /** `https://<api id>.execute-api.<region>.amazonaws.com`, as the stack prints it. */
    readonly hostRoot: string,
    /** The rehearsal's front, `http://127.0.0.1:PORT`. */
    readonly frontUrl: string,
    private readonly tls: Server,
    private readonly certificateDir: string,
  ) {}

  static async start(hostRoot: string, frontUrl: string): Promise<DeployedHost> {
    const { dir, key, cert } = await loopbackCertificate('meridian-rehearsal-host-');
    const front = new URL(frontUrl);
    const tls = createServer({ key, cert }, async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (value !== undefined && !name.startsWith(':') && name !== 'host' && name !== 'connection')
          headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      try {
        const answer = await fetch(new URL(request.url ?? '/', front), {
          method: request.method ?? 'GET',
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
          redirect: 'manual',
        });
        const outgoing: Record<string, string | string[]> = {};
        answer.headers.forEach((value, name) => {
          // fetch has decoded the body; Set-Cookie lines go back one by one (below).
          if (!['set-cookie', 'content-encoding', 'content-length', 'transfer-encoding'].includes(name))
            outgoing[name] = value;
        });
        if (answer.headers.getSetCookie().length > 0) outgoing['set-cookie'] = answer.headers.getSetCookie();
        response.writeHead(answer.status, outgoing);
        response.end(Buffer.from(await answer.arrayBuffer()));
      } catch (error) {
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`The rehearsal's front did not answer: ${String(error)}`);
      }
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    return new DeployedHost(hostRoot, frontUrl, tls, dir);
  }

  /** Where a request for `url` goes: the front when it is for the deployed host, else `url` itself. */
  target(url: string): string {
    return url.startsWith(`${this.hostRoot}/`) ? `${this.frontUrl}${url.slice(this.hostRoot.length)}` : url;
  }

  /** A fetch for the MCP SDK client (its transport's `fetch` option: discovery, registration, tokens, MCP). */
  readonly fetch: FetchLike = (input, init) => {
    const url = input instanceof URL ? input.href : String(input);
    return fetch(this.target(url), init);
  };

  /** Chromium's flag that resolves the host name to the TLS endpoint here (its certificate is self-signed). */
  get chromiumArgs(): string[] {
    const { port } = this.tls.address() as AddressInfo;
    return [`--host-resolver-rules=MAP ${new URL(this.hostRoot).hostname} 127.0.0.1:${port}`];
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.tls.closeAllConnections();
      this.tls.close(() => resolve());
    });
    await rm(this.certificateDir, { recursive: true, force: true });
  }
}
