import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import { HttpSignIn, pkcePair } from './oauth-http-flow.js';

/** A person at the organization's issuer: their password there, and the claims it asserts. */
export interface UpstreamAccount {
  password: string;
  email?: string;
  email_verified?: boolean;
}

/** Meridian's confidential client at the issuer, as an administrator registers it in Cognito. */
export const MERIDIAN_CLIENT = { id: 'meridian', secret: 'meridian-client-secret-at-the-issuer' } as const;
/**
 * Meridian as the stack's Cognito app client registers it: a public client, PKCE and no secret
 * (ADR 0027), under the same client id.
 */
export const MERIDIAN_PUBLIC_CLIENT = { id: 'meridian' } as const;
/** Another app of the organization: a public client (PKCE only) whose ID tokens are not Meridian's. */
export const PUBLIC_CLIENT = { id: 'other-app', redirectUri: 'http://127.0.0.1:9/other-app' } as const;

export interface UpstreamIssuer {
  /** http://127.0.0.1:<port>, the discovery document's `issuer`. */
  issuer: string;
  /** Registers Meridian's redirect URI (known once Meridian listens) and starts answering. */
  register(meridianCallback: string): void;
  /** The next token response carries this ID token instead of its own (a mix-up or substitution attack). */
  substituteNextIdToken(idToken: string): void;
  /** A genuine ID token of this issuer, through its own pages: for `clientId`, carrying `nonce`. */
  idTokenFor(options: {
    login: string;
    clientId: string;
    redirectUri: string;
    nonce: string;
  }): Promise<string>;
  close(): Promise<void>;
}

function page(body: string): string {
  return `<!doctype html><html><head><title>Organization sign-in</title></head><body>${body}</body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** One RSA key for every issuer of a test file: a substituted token's signature verifies, so only iss/aud can refuse it. */
let sharedKey: Promise<JWK> | undefined;
function signingKey(): Promise<JWK> {
  sharedKey ??= generateKeyPair('RS256', { extractable: true }).then(async ({ privateKey }) => ({
    ...(await exportJWK(privateKey)),
    kid: 'test-issuer-key',
    alg: 'RS256',
    use: 'sig',
  }));
  return sharedKey;
}

/**
 * A real OpenID Provider (oidc-provider, OpenID-certified) configured as a Cognito user pool is
 * for Meridian: authorization code with PKCE S256, RS256 ID tokens carrying `email` and
 * `email_verified`, a confidential client with a secret (Meridian; with `meridian: 'public'` a
 * public one, as the stack's own Cognito client) and another public one, and a
 * hosted sign-in page with no consent screen (a "Cancel" answers `access_denied`). On a loopback
 * port, over http.
 */
export async function startUpstreamIssuer(
  accounts: Record<string, UpstreamAccount>,
  options: { meridian?: 'confidential' | 'public' } = {},
): Promise<UpstreamIssuer> {
  let provider: Provider | undefined;
  let substitute: string | undefined;
  const server: Server = createServer((req, res) => {
    if (!provider) {
      res.writeHead(503).end();
      return;
    }
    void answer(provider, req, res).catch((error: unknown) => {
      console.error('test issuer', error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = await signingKey();

  async function answer(oidc: Provider, req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (path.startsWith('/interaction/')) return interaction(oidc, req, res, path);
    if (path === '/token' && substitute) {
      const idToken = substitute;
      substitute = undefined;
      const end = res.end.bind(res);
      res.end = ((body: unknown) => {
        const json = JSON.parse(String(body)) as Record<string, unknown>;
        const text = JSON.stringify({ ...json, id_token: idToken });
        res.setHeader('content-length', Buffer.byteLength(text));
        return end(text);
      }) as typeof res.end;
    }
    oidc.callback()(req, res);
  }

  async function interaction(oidc: Provider, req: IncomingMessage, res: ServerResponse, path: string) {
    const details = await oidc.interactionDetails(req, res);
    const form = req.method === 'POST' ? await readForm(req) : undefined;
    if (form?.has('cancel'))
      return oidc.interactionFinished(req, res, {
        error: 'access_denied',
        error_description: 'The person cancelled.',
      });
    const login = form?.get('login') ?? '';
    const account = accounts[login];
    if (form && account && form.get('password') === account.password) {
      const grant = new oidc.Grant({ accountId: login, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      return oidc.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId } });
    }
    res.writeHead(form ? 401 : 200, { 'content-type': 'text/html' });
    res.end(
      page(`<h1>Organization sign-in</h1>${form ? '<p>Wrong login or password.</p>' : ''}
<form method="post" action="${path.replace(/\/login$/, '')}/login"><input type="hidden" name="csrf" value="unused">
<input name="login" autocomplete="username"><input name="password" type="password" autocomplete="current-password">
<button type="submit" name="sign_in">Sign in</button><button type="submit" name="cancel" formnovalidate>Cancel</button></form>`),
    );
  }

  function configuration(meridianCallback: string): Configuration {
    return {
      clients: [
        options.meridian === 'public'
          ? {
              client_id: MERIDIAN_PUBLIC_CLIENT.id,
              redirect_uris: [meridianCallback],
              token_endpoint_auth_method: 'none',
            }
          : {
              client_id: MERIDIAN_CLIENT.id,
              client_secret: MERIDIAN_CLIENT.secret,
              redirect_uris: [meridianCallback],
              token_endpoint_auth_method: 'client_secret_basic',
            },
        {
          client_id: PUBLIC_CLIENT.id,
          redirect_uris: [PUBLIC_CLIENT.redirectUri],
          token_endpoint_auth_method: 'none',
        },
      ],
      jwks: { keys: [key as never] },
      cookies: { keys: ['test-issuer-cookie-key'] },
      pkce: { required: () => true },
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      // As Cognito: the email claims travel in the ID token, not only at userinfo.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      ttl: {
        Interaction: 600,
        Grant: 600,
        Session: 600,
        AccessToken: 600,
        IdToken: 600,
        AuthorizationCode: 60,
      },
      interactions: { url: (_ctx, details) => `/interaction/${details.uid}` },
      findAccount: (_ctx, sub) => {
        const account = accounts[sub];
        if (!account) return undefined;
        return {
          accountId: sub,
          claims: () => ({
            sub,
            ...(account.email ? { email: account.email } : {}),
            ...(account.email_verified === undefined ? {} : { email_verified: account.email_verified }),
          }),
        };
      },
    };
  }

  return {
    issuer,
    register(meridianCallback) {
      provider = new Provider(issuer, configuration(meridianCallback));
    },
    substituteNextIdToken(idToken) {
      substitute = idToken;
    },
    async idTokenFor({ login, clientId, redirectUri, nonce }) {
      const browser = new HttpSignIn(issuer);
      const { verifier, challenge } = pkcePair();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: 'openid email',
        nonce,
        state: 'other',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const signInPage = await browser.follow(await browser.request(`/auth?${query}`));
      const done = await browser.follow(
        await browser.submit(signInPage, { login, password: accounts[login]!.password, sign_in: '' }),
      );
      const code = new URL(done.headers.get('location')!).searchParams.get('code')!;
      const secret = clientId === MERIDIAN_CLIENT.id ? MERIDIAN_CLIENT.secret : undefined;
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(secret
            ? { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` }
            : {}),
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
          ...(secret ? {} : { client_id: clientId }),
        }),
      });
      const tokens = (await response.json()) as { id_token?: string };
      if (!tokens.id_token) throw new Error(`no ID token: ${JSON.stringify(tokens)}`);
      return tokens.id_token;
    },
    close: () => new Promise<void>((resolvePromise) => server.close(() => resolvePromise())),
  };
}
