import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource } from '../../../lambdas/core/access/rights.js';
import { startClientMetadataServer } from '../../support/client-metadata-server.js';
import { launchChromium } from '../../support/headless-chromium.js';
import { callTool, connectInMemory, okTool } from '../../support/mcp-client.js';
import { LoopbackOAuthClient } from '../../support/oauth-test-client.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';
import { CHROMIUM, needs, OPENSSL } from '../../support/system-parts.js';

/*
 * The whole sign-in, as a person does it: the SDK client's own OAuth support discovers the
 * server (401 challenge → protected-resource metadata → authorization server), registers or uses
 * a pre-registered id, sends the person to the authorization page, which headless Chromium fills
 * in (sign-in, then the consent matrix), and redeems the code from its loopback callback. Then
 * tools of two toolsets run with the token, within exactly what was consented.
 */

let served: ServedSignIn;
let metadataServer: Awaited<ReturnType<typeof startClientMetadataServer>>;
let chromium: { browser: Browser; close(): Promise<void> };
let work: string;
let personal: string;

/** Chromium drives the pages; openssl makes the CIMD document's certificate. */
const parts = needs(CHROMIUM, OPENSSL);

beforeAll(async () => {
  if (parts.skip) return;
  metadataServer = await startClientMetadataServer();
  [served, chromium] = await Promise.all([
    serveWithSignIn({ loopbackClientMetadataCa: metadataServer.ca }),
    launchChromium(),
  ]);
  const owner = await connectInMemory(served.runtime);
  work = (await okTool(owner, 'create_calendar', { summary: 'Work' })).calendar.id;
  personal = (await okTool(owner, 'create_calendar', { summary: 'Personal' })).calendar.id;
  await owner.close();
  await served.users.add('alice', 'correct horse battery staple');
  await served.users.setGrant('alice', calendarResource(work), 'write');
  await served.users.setGrant('alice', calendarResource(personal), 'write');
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  await served?.close();
  await metadataServer?.close();
});

/** The person at the browser: signs in, narrows the matrix to Work read-only, approves. */
async function signInAndConsent(url: URL, choices: Record<string, 'none' | 'read' | 'write'>) {
  const page = await chromium.browser.newPage();
  try {
    await page.goto(url.href);
    await page.fill('input[autocomplete="username"]', 'alice');
    await page.fill('input[autocomplete="current-password"]', 'correct horse battery staple');
    await page.click('button[name="sign_in"]');
    await page.waitForSelector('button[name="approve"]');
    const offered = await page
      .locator('select[name^="grant:"]')
      .evaluateAll((selects) =>
        selects.map((select) => [
          (select as HTMLSelectElement).name,
          [...(select as HTMLSelectElement).options].map((o) => o.value),
        ]),
      );
    for (const [resource, right] of Object.entries(choices))
      await page.selectOption(`select[name="grant:${resource}"]`, right);
    await page.click('button[name="approve"]');
    await page.waitForURL(/\/callback\?/);
    return { offered };
  } finally {
    await page.close();
  }
}

/** The SDK's own flow: connect → 401 → authorization URL; the browser; finishAuth; connect again. */
async function signInWithSdk(oauthClient: LoopbackOAuthClient, query = '') {
  const url = new URL(`${served.mcpUrl}${query}`);
  const first = new Client({ name: 'browser-test', version: '1.0.0' });
  await expect(
    first.connect(new StreamableHTTPClientTransport(url, { authProvider: oauthClient })),
  ).rejects.toThrow(UnauthorizedError);
  expect(oauthClient.authorizationUrl?.origin).toBe(served.url);
  const { offered } = await signInAndConsent(oauthClient.authorizationUrl!, {
    [work]: 'read',
    [personal]: 'none',
  });
  const params = await oauthClient.callbackParams();
  expect(params.get('iss')).toBe(served.url);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: oauthClient });
  await transport.finishAuth(params);
  const client = new Client({ name: 'browser-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: oauthClient }));
  return { client, offered };
}

describe('signing in through the browser', parts, () => {
  it('lets a client that registers itself (DCR) call tools of two toolsets, within the consent', async () => {
    const oauthClient = await LoopbackOAuthClient.start('DCR test client');
    try {
      const { client, offered } = await signInWithSdk(oauthClient, '?toolsets=time,calendar');

      expect(oauthClient.clientInformation()?.client_id).toBeTruthy();
      expect(offered.sort()).toEqual(
        [
          [`grant:${work}`, ['none', 'read', 'write']],
          [`grant:${personal}`, ['none', 'read', 'write']],
        ].sort(),
      );
      expect(await okTool(client, 'get_temporal_context', {})).toHaveProperty('utc');
      const calendars = (await okTool(client, 'list_calendars', {})).calendars.map(
        (c: { id: string }) => c.id,
      );
      expect(calendars).toEqual([work]);
      const write = await callTool(client, 'create_event', {
        calendar_id: work,
        summary: 'Standup',
        start: '2030-01-07T09:00:00Z',
        end: '2030-01-07T09:15:00Z',
      });
      expect(write.isError).toBe(true);
      expect(JSON.stringify(write.content)).toContain('FORBIDDEN');
      await client.close();
    } finally {
      await oauthClient.close();
    }
  }, 60_000);

  it('lets a pre-registered native client sign in on a loopback port it never registered', async () => {
    const clientId = await served.oauth.registerClient({
      client_id: 'preregistered-cli',
      client_name: 'Pre-registered CLI',
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const oauthClient = await LoopbackOAuthClient.start('Pre-registered CLI', clientId);
    try {
      const { client } = await signInWithSdk(oauthClient, '?toolsets=time,calendar');

      expect(oauthClient.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(await okTool(client, 'get_temporal_context', {})).toHaveProperty('utc');
      expect((await okTool(client, 'list_calendars', {})).calendars).toHaveLength(1);
      await client.close();
    } finally {
      await oauthClient.close();
    }
  }, 60_000);

  it('lets a client described by its metadata document (CIMD) sign in, with no registration', async () => {
    const oauthClient = await LoopbackOAuthClient.start('CIMD client');
    oauthClient.clientMetadataUrl = metadataServer.publish('/cimd/client.json', (url) => ({
      client_id: url,
      client_name: 'CIMD client',
      redirect_uris: [oauthClient.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }));
    try {
      const { client } = await signInWithSdk(oauthClient, '?toolsets=time,calendar');

      expect(oauthClient.clientInformation()?.client_id).toBe(oauthClient.clientMetadataUrl);
      expect(await okTool(client, 'get_temporal_context', {})).toHaveProperty('utc');
      expect((await okTool(client, 'list_calendars', {})).calendars).toHaveLength(1);
      await client.close();
    } finally {
      await oauthClient.close();
    }
  }, 60_000);

  it('refuses a metadata document whose client_id is not its own URL', async () => {
    const url = metadataServer.publish('/cimd/impostor.json', () => ({
      client_id: 'https://claude.ai/oauth/client.json',
      client_name: 'Impostor',
      redirect_uris: ['http://127.0.0.1:9/callback'],
      token_endpoint_auth_method: 'none',
    }));
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: url,
      redirect_uri: 'http://127.0.0.1:9/callback',
      scope: 'toolset:time',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });

    const response = await fetch(`${served.url}/oauth/authorize?${query}`, { redirect: 'manual' });

    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toMatch(/client_id does not match/);
  });
});
