import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/**
 * A native MCP client's side of the sign-in, as the SDK's OAuth support expects it: an
 * OAuthClientProvider that keeps everything in memory, and a loopback callback server on a
 * random port (RFC 8252) that the browser is redirected to with the code.
 */
export class LoopbackOAuthClient implements OAuthClientProvider {
  /** Where the SDK sent the person; the test opens it in the browser. */
  authorizationUrl: URL | undefined;
  private client: StoredOAuthClientInformation | undefined;
  private stored: StoredOAuthTokens | undefined;
  private verifier = '';
  private discovered: OAuthDiscoveryState | undefined;
  private callback: Promise<URLSearchParams>;
  private resolveCallback!: (params: URLSearchParams) => void;

  private constructor(
    private readonly server: Server,
    readonly redirectUrl: string,
    private readonly name: string,
    preRegistered?: string,
  ) {
    if (preRegistered) this.client = { client_id: preRegistered };
    this.callback = new Promise((resolvePromise) => {
      this.resolveCallback = resolvePromise;
    });
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', redirectUrl);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('Signed in; you can close this window.');
      if (url.pathname === new URL(redirectUrl).pathname) this.resolveCallback(url.searchParams);
    });
  }

  /** Set before connecting: the client is then identified by this metadata document URL (CIMD). */
  clientMetadataUrl: string | undefined;

  /** A client whose callback listens on 127.0.0.1:<random port>/callback; `preRegistered` skips registration. */
  static async start(name: string, preRegistered?: string): Promise<LoopbackOAuthClient> {
    const server = createServer();
    await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
    const { port } = server.address() as AddressInfo;
    return new LoopbackOAuthClient(server, `http://127.0.0.1:${port}/callback`, name, preRegistered);
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(information: StoredOAuthClientInformation) {
    this.client = information;
  }

  tokens() {
    return this.stored;
  }

  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }

  discoveryState() {
    return this.discovered;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  /** The callback's query (`code`, `state`, `iss` or `error`), once the browser arrives. */
  callbackParams(): Promise<URLSearchParams> {
    return this.callback;
  }

  close(): Promise<void> {
    return new Promise((resolvePromise) => this.server.close(() => resolvePromise()));
  }
}
