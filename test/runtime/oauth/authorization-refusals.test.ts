import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource } from '../../../lambdas/core/access/rights.js';
import { connectInMemory, okTool } from '../../support/mcp-client.js';
import {
  authorizeOverHttp,
  HttpSignIn,
  listToolsWithBearer,
  pkcePair,
  registerClient,
  tokenRequest,
} from '../../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';

/*
 * The authorization server's refusals, each at the transport: what a client sends over HTTP and
 * what comes back. The sign-in and consent are the real pages, posted as a browser without
 * script would (test/support/oauth-http-flow.ts).
 */

const ALICE = { name: 'alice', password: 'correct horse battery staple' };
const SCOPE = 'toolset:time toolset:calendar';

/** Seconds the test clock is ahead of the system clock: moves rotated refresh tokens past their grace. */
let skewSeconds = 0;
const clock = { now: () => new Date(Date.now() + skewSeconds * 1000) };

let served: ServedSignIn;
let work: string;

beforeAll(async () => {
  served = await serveWithSignIn({
    clock,
    refreshReuseGraceSeconds: 30,
    registrationLimit: { perWindow: 40, windowMs: 60_000 },
  });
  const owner = await connectInMemory(served.runtime);
  work = (await okTool(owner, 'create_calendar', { summary: 'Work' })).calendar.id;
  await owner.close();
  await served.users.add(ALICE.name, ALICE.password);
  await served.users.setGrant(ALICE.name, calendarResource(work), 'read');
}, 60_000);

afterAll(async () => {
  await served?.close();
});

async function tokensFor(flow: Awaited<ReturnType<typeof authorizeOverHttp>>) {
  const response = await tokenRequest(served.url, {
    grant_type: 'authorization_code',
    code: flow.callback.get('code')!,
    redirect_uri: flow.redirectUri,
    client_id: flow.clientId,
    code_verifier: flow.verifier,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token: string; scope: string };
}

function listTools(accessToken: string) {
  return listToolsWithBearer(served.mcpUrl, accessToken);
}

function refresh(clientId: string, refreshToken: string) {
  return tokenRequest(served.url, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
  });
}

describe('discovery', () => {
  it.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])(
    'describes at %s what MCP clients require',
    async (path) => {
      const response = await fetch(`${served.url}${path}`);
      const metadata = (await response.json()) as Record<string, unknown>;

      expect(response.status).toBe(200);
      expect(metadata).toMatchObject({
        issuer: served.url,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
        registration_endpoint: `${served.url}/oauth/register`,
        revocation_endpoint: `${served.url}/oauth/revoke`,
      });
      expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
      expect(metadata.scopes_supported).not.toContain('offline_access');
      expect(metadata.grant_types_supported).not.toContain('implicit');
    },
  );
});

describe('the code and its verifier', () => {
  it('issues a token whose scope is exactly the consented toolsets, for the MCP URL', async () => {
    const flow = await authorizeOverHttp(served.url, {
      person: ALICE,
      scope: SCOPE,
      resource: served.mcpUrl,
      consent: { toolset: ['time'], [`grant:${work}`]: 'read', approve: 'yes' },
    });
    const tokens = await tokensFor(flow);

    expect(flow.callback.get('iss')).toBe(served.url);
    expect(tokens.scope).toBe('toolset:time');
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ aud: served.mcpUrl, iss: served.url, sub: 'alice' });
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(300);
  });

  it('offers and grants every toolset to a request that names no scope, as clients given none send', async () => {
    const flow = await authorizeOverHttp(served.url, {
      person: ALICE,
      scope: undefined,
      resource: served.mcpUrl,
    });
    const tokens = await tokensFor(flow);

    expect(tokens.scope.split(' ').sort()).toEqual(served.oauth.protectedResource.scopesSupported.toSorted());
  });

  it('refuses a code redeemed with a verifier that does not match its challenge', async () => {
    const flow = await authorizeOverHttp(served.url, {
      person: ALICE,
      scope: SCOPE,
      resource: served.mcpUrl,
    });

    const response = await tokenRequest(served.url, {
      grant_type: 'authorization_code',
      code: flow.callback.get('code')!,
      redirect_uri: flow.redirectUri,
      client_id: flow.clientId,
      code_verifier: pkcePair().verifier,
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an authorization request without PKCE', async () => {
    const { client_id } = (await (
      await registerClient(served.url, {
        redirect_uris: ['http://127.0.0.1:9/cb'],
        application_type: 'native',
      })
    ).json()) as { client_id: string };
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: 'http://127.0.0.1:9/cb',
      scope: SCOPE,
    });

    const response = await fetch(`${served.url}/oauth/authorize?${query}`, { redirect: 'manual' });

    expect(response.status).toBe(303);
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a token for another resource', async () => {
    const flow = await authorizeOverHttp(served.url, {
      person: ALICE,
      scope: SCOPE,
      resource: served.mcpUrl,
    });

    const response = await tokenRequest(served.url, {
      grant_type: 'authorization_code',
      code: flow.callback.get('code')!,
      redirect_uri: flow.redirectUri,
      client_id: flow.clientId,
      code_verifier: flow.verifier,
      resource: 'https://other.example.com/mcp',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_target' });
  });
});

describe('redirect URIs', () => {
  it('refuses a redirect URI the client did not register, without redirecting to it', async () => {
    const { client_id } = (await (
      await registerClient(served.url, { redirect_uris: ['https://app.example.com/callback'] })
    ).json()) as { client_id: string };
    const { challenge } = pkcePair();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: 'https://evil.example.com/callback',
      scope: SCOPE,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });

    const response = await fetch(`${served.url}/oauth/authorize?${query}`, { redirect: 'manual' });

    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('redirect_uri');
  });

  it("matches a web client's redirect URI exactly, port included", async () => {
    const { client_id } = (await (
      await registerClient(served.url, { redirect_uris: ['http://127.0.0.1:4000/callback'] })
    ).json()) as { client_id: string };
    const { challenge } = pkcePair();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: 'http://127.0.0.1:4001/callback',
      scope: SCOPE,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });

    expect((await fetch(`${served.url}/oauth/authorize?${query}`, { redirect: 'manual' })).status).toBe(400);
  });
});

describe('client ID metadata documents', () => {
  it('refuses a metadata document URL on a loopback or private address without fetching it', async () => {
    const { challenge } = pkcePair();
    for (const clientId of [
      'https://127.0.0.1:9/client.json',
      'https://10.0.0.1/client.json',
      'https://localhost/client.json',
    ]) {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:9/callback',
        scope: SCOPE,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });

      const response = await fetch(`${served.url}/oauth/authorize?${query}`, { redirect: 'manual' });

      expect({ clientId, status: response.status }).toEqual({ clientId, status: 400 });
      expect(await response.text()).toContain('invalid_client');
    }
  });
});

describe('the sign-in and consent pages', () => {
  it('refuses a wrong password, and a form without its CSRF token', async () => {
    const { client_id } = (await (
      await registerClient(served.url, {
        redirect_uris: ['http://127.0.0.1:9/cb'],
        application_type: 'native',
      })
    ).json()) as { client_id: string };
    const browser = new HttpSignIn(served.url);
    const { challenge } = pkcePair();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: 'http://127.0.0.1:9/cb',
      scope: SCOPE,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const page = await browser.follow(await browser.request(`/oauth/authorize?${query}`));
    const action = /action="([^"]+)"/.exec(await page.clone().text())![1]!;

    const wrong = await browser.submit(page, { username: 'alice', password: 'not her password' });
    const forged = await browser.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: ALICE.name, password: ALICE.password }),
    });

    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('do not match');
    expect(forged.status).toBe(403);
  });

  it('refuses a consent wider than the person has (write on a calendar they may only read)', async () => {
    await expect(
      authorizeOverHttp(served.url, {
        person: ALICE,
        scope: SCOPE,
        resource: served.mcpUrl,
        consent: { toolset: ['time'], [`grant:${work}`]: 'write', approve: 'yes' },
      }),
    ).rejects.toThrow(/cannot give write access/);
  });

  it('refuses a crafted consent that names no resource with the consent page, not a server fault', async () => {
    await expect(
      authorizeOverHttp(served.url, {
        person: ALICE,
        scope: SCOPE,
        resource: served.mcpUrl,
        consent: { toolset: ['time'], 'grant:project/a#b': 'read', approve: 'yes' },
      }),
    ).rejects.toThrow(/cannot give access to project\/a#b: it names no calendar or project of yours/);
  });
});

describe('refresh tokens', () => {
  it('rotates, lets the old one work once more within the grace, and revokes the family when reused after it', async () => {
    skewSeconds = 0;
    const flow = await authorizeOverHttp(served.url, {
      person: ALICE,
      scope: SCOPE,
      resource: served.mcpUrl,
    });
    const first = await tokensFor(flow);
    const rotated = await refresh(flow.clientId, first.refresh_token);
    const second = (await rotated.json()) as { access_token: string; refresh_token: string };
    expect(rotated.status).toBe(200);
    expect(second.refresh_token).not.toBe(first.refresh_token);

    const withinGrace = await refresh(flow.clientId, first.refresh_token);
    expect(withinGrace.status).toBe(200);

    skewSeconds = 31;
    const afterGrace = await refresh(flow.clientId, first.refresh_token);
    expect(afterGrace.status).toBe(400);
    expect(await afterGrace.json()).toMatchObject({ error: 'invalid_grant' });
    skewSeconds = 0;

    const newest = await refresh(flow.clientId, second.refresh_token);
    expect(newest.status).toBe(400);
    await expect.poll(async () => (await listTools(second.access_token)).status).toBe(401);
  });

  it('ends a revoked session: its refresh token and its access tokens stop working', async () => {
    const flow = await authorizeOverHttp(served.url, {
      person: ALICE,
      scope: SCOPE,
      resource: served.mcpUrl,
    });
    const tokens = await tokensFor(flow);
    expect((await listTools(tokens.access_token)).status).toBe(200);

    const revoked = await fetch(`${served.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: flow.clientId }),
    });

    expect(revoked.status).toBe(200);
    expect((await refresh(flow.clientId, tokens.refresh_token)).status).toBe(400);
    await expect.poll(async () => (await listTools(tokens.access_token)).status).toBe(401);
  });
});

describe('dynamic registration', () => {
  it('stops an address that registers too often, saying when to retry', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 45; i += 1) {
      statuses.push(
        (await registerClient(served.url, { redirect_uris: ['https://app.example.com/cb'] })).status,
      );
    }
    const refused = await registerClient(served.url, { redirect_uris: ['https://app.example.com/cb'] });

    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(40);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // oidc-provider also registers at these spellings of the path: they spend the same budget.
    const otherSpellings: Record<string, number> = {};
    for (const path of ['/oauth/register/', '/oauth/Register', '/oauth/REGISTER/'])
      otherSpellings[path] = (
        await registerClient(served.url, { redirect_uris: ['https://app.example.com/cb'] }, path)
      ).status;
    expect(otherSpellings).toEqual({
      '/oauth/register/': 429,
      '/oauth/Register': 429,
      '/oauth/REGISTER/': 429,
    });
  });
});
