import { createHash, randomBytes } from 'node:crypto';

/**
 * The authorization-code flow over plain HTTP, as a browser without script would run it: a
 * cookie jar, redirects followed by hand, the real sign-in and consent forms posted with the CSRF
 * token read from the page. For refusal tests that need a code or tokens without Chromium.
 */
export class HttpSignIn {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
  }

  /** One request with the jar's cookies; redirects are not followed. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(new URL(url, this.baseUrl), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    this.remember(response);
    return response;
  }

  /** Follows redirects on this server; stops at a page (200) or a redirect elsewhere. */
  async follow(response: Response): Promise<Response> {
    let current = response;
    while (current.status >= 300 && current.status < 400) {
      const location = new URL(current.headers.get('location')!, this.baseUrl);
      if (location.origin !== new URL(this.baseUrl).origin) return current;
      current = await this.request(location.href);
    }
    return current;
  }

  /** Posts a page's form (its action and CSRF token read from the HTML) with `fields`. */
  async submit(page: Response, fields: Record<string, string | string[]>): Promise<Response> {
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !csrf) throw new Error(`no form on the page:\n${html.slice(0, 500)}`);
    const body = new URLSearchParams({ csrf });
    for (const [name, value] of Object.entries(fields))
      for (const item of [value].flat()) body.append(name, item);
    return this.request(action.replaceAll('&#47;', '/'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  }
}

/** A PKCE pair (S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers a public client (DCR) and answers its client id. */
export async function registerClient(
  baseUrl: string,
  metadata: Record<string, unknown>,
  /** Another spelling of the endpoint's path, which oidc-provider's router also takes. */
  path = '/oauth/register',
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...metadata,
    }),
  });
}

export interface CodeFlow {
  clientId: string;
  redirectUri: string;
  verifier: string;
  /** The authorization response's query: `code`, `iss`, `state`. */
  callback: URLSearchParams;
}

/**
 * A whole authorization through the pages: register (unless `clientId`), authorize, sign in as
 * `person`, consent with `consent` fields (default: every toolset asked, every offered right),
 * and answer the callback's parameters.
 */
export async function authorizeOverHttp(
  baseUrl: string,
  options: {
    person: { name: string; password: string };
    /** Left out of the request when undefined, as clients do that were given no scope. */
    scope: string | undefined;
    resource: string;
    clientId?: string;
    redirectUri?: string;
    consent?: Record<string, string | string[]>;
  },
): Promise<CodeFlow> {
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:9/callback';
  const clientId =
    options.clientId ??
    (
      (await (
        await registerClient(baseUrl, {
          client_name: 'HTTP test',
          redirect_uris: [redirectUri],
          application_type: 'native',
        })
      ).json()) as { client_id: string }
    ).client_id;
  const { verifier, challenge } = pkcePair();
  const browser = new HttpSignIn(baseUrl);
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    ...(options.scope === undefined ? {} : { scope: options.scope }),
    resource: options.resource,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
  });
  const signInPage = await browser.follow(await browser.request(`/oauth/authorize?${query}`));
  const consentPage = await browser.follow(
    await browser.submit(signInPage, { username: options.person.name, password: options.person.password }),
  );
  const html = await consentPage.clone().text();
  const offered = [...html.matchAll(/name="toolset" value="([^"]+)"/g)].map((m) => m[1]!);
  const done = await browser.follow(
    await browser.submit(consentPage, options.consent ?? { toolset: offered, approve: 'yes' }),
  );
  const location = done.headers.get('location');
  if (!location?.startsWith(redirectUri))
    throw new Error(`no redirect to the client: ${done.status} ${await done.text()}`);
  return { clientId, redirectUri, verifier, callback: new URL(location).searchParams };
}

/** POST /oauth/token with a form body. */
export function tokenRequest(baseUrl: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

/** The tokens a code flow's code is exchanged for, with its own verifier and redirect. */
export async function redeemCode(
  baseUrl: string,
  flow: Pick<CodeFlow, 'callback' | 'redirectUri' | 'clientId' | 'verifier'>,
): Promise<{ access_token: string; refresh_token: string }> {
  const answer = await tokenRequest(baseUrl, {
    grant_type: 'authorization_code',
    code: flow.callback.get('code') ?? '',
    redirect_uri: flow.redirectUri,
    client_id: flow.clientId,
    code_verifier: flow.verifier,
  });
  if (!answer.ok) throw new Error(`token request refused: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as { access_token: string; refresh_token: string };
}

/** POST /mcp `tools/list` (2025-11-25) with a bearer, as the transport sees it: the answer itself, refused or not. */
export function listToolsWithBearer(
  mcpUrl: string | URL,
  bearer: string,
  send: (url: string | URL, init: RequestInit) => Promise<Response> = fetch,
): Promise<Response> {
  return send(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}
