import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Administrators } from '../../../lambdas/core/auth/administrators.js';
import { startClientMetadataServer } from '../../support/client-metadata-server.js';
import { launchChromium } from '../../support/headless-chromium.js';
import { authorizeOverHttp, listToolsWithBearer, redeemCode } from '../../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';
import { CHROMIUM, needs, OPENSSL } from '../../support/system-parts.js';

/*
 * The administrators' page (/oauth/admin) in headless Chromium: signed in through the same pages
 * as any client's sign-in, it lists sessions and clients and revokes them; a person who is not an
 * administrator gets 403, and a POST without the page's CSRF token is refused.
 */

let served: ServedSignIn;
let metadataServer: Awaited<ReturnType<typeof startClientMetadataServer>>;
let chromium: Awaited<ReturnType<typeof launchChromium>>;

const PASSWORD = 'correct horse battery staple';
const parts = needs(CHROMIUM, OPENSSL);

beforeAll(async () => {
  if (parts.skip) return;
  metadataServer = await startClientMetadataServer();
  [served, chromium] = await Promise.all([
    serveWithSignIn({ loopbackClientMetadataCa: metadataServer.ca }),
    launchChromium(),
  ]);
  await served.users.add('alice', PASSWORD);
  await served.users.add('bob', PASSWORD);
  await new Administrators(served.runtime).set('alice', true, (name) => served.users.exists(name));
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  await served?.close();
  await metadataServer?.close();
});

/** Bob signs in through a client (DCR unless `clientId`) and redeems the code: his access token. */
async function bobSignsIn(clientId?: string, redirectUri?: string) {
  const flow = await authorizeOverHttp(served.url, {
    person: { name: 'bob', password: PASSWORD },
    scope: 'toolset:time',
    resource: served.mcpUrl,
    ...(clientId ? { clientId } : {}),
    ...(redirectUri ? { redirectUri } : {}),
  });
  const tokens = await redeemCode(served.url, flow);
  return { clientId: flow.clientId, token: tokens.access_token };
}

function listTools(token: string) {
  return listToolsWithBearer(served.mcpUrl, token);
}

/** A fresh browser profile signed in as `person` through the admin page's own sign-in; the page it lands on. */
async function openAdminPage(person: string) {
  const context = await chromium.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${served.url}/oauth/admin`);
  await page.fill('input[autocomplete="username"]', person);
  await page.fill('input[autocomplete="current-password"]', PASSWORD);
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/oauth/admin');
  await page.click('button[name="sign_in"]');
  return { context, page, status: (await answer).status() };
}

describe('the admin page', parts, () => {
  let admin: { context: BrowserContext; page: import('playwright-core').Page; status: number };

  beforeAll(async () => {
    if (parts.skip) return;
    admin = await openAdminPage('alice');
  }, 60_000);

  afterAll(async () => {
    await admin?.context.close();
  });

  it('lets an administrator see a session and revoke it: its token stops at the next request', async () => {
    const bob = await bobSignsIn();
    expect((await listTools(bob.token)).status).toBe(200);
    await served.oauth.registerClient({
      client_id: 'pre-registered-desk',
      client_name: 'Desk app',
      redirect_uris: ['http://127.0.0.1/callback'],
      application_type: 'native',
    });

    await admin.page.reload();
    await expect(admin.page.locator('li', { hasText: 'pre-registered-desk' }).textContent()).resolves.toMatch(
      /Desk app \(pre-registered\)[\s\S]*returns to 127\.0\.0\.1 [\s\S]*0 consent\(s\)/,
    );
    const row = admin.page.locator('li', { hasText: bob.clientId }).filter({ hasText: 'Session' });
    await expect(row.textContent()).resolves.toContain('bob');
    await row.locator('button[name="revoke"]').click();
    await admin.page.waitForSelector('p[role="status"]');

    expect(admin.status).toBe(200);
    expect(await admin.page.textContent('p[role="status"]')).toMatch(/^Revoked session \S+\.$/);
    expect((await listTools(bob.token)).status).toBe(401);
    expect(
      await admin.page.locator('li', { hasText: 'Session' }).filter({ hasText: bob.clientId }).count(),
    ).toBe(0);
    const days = await served.audit.days();
    const audit = (await Promise.all(days.map((day) => served.audit.records(day)))).flat();
    const revoked = audit.find((record) => record.action === 'oauth admin session revoke');
    expect([revoked?.principal, revoked?.completion?.outcome]).toEqual(['user:alice', 'ok']);
  }, 60_000);

  it('revokes a client described by its metadata document: its session ends and its next sign-in is refused', async () => {
    const redirectUri = 'http://127.0.0.1:9/callback';
    const clientId = metadataServer.publish('/cimd/admin-revoked.json', (url) => ({
      client_id: url,
      client_name: 'Revoked CIMD',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }));
    const bob = await bobSignsIn(clientId, redirectUri);

    await admin.page.reload();
    const row = admin.page.locator('li', { hasText: clientId }).filter({ hasText: 'metadata document' });
    await row.locator('button[name="revoke"]').click();
    await admin.page.waitForSelector('p[role="status"]');

    expect(await admin.page.textContent('p[role="status"]')).toBe(
      `Revoked client ${clientId} and its 1 session(s).`,
    );
    expect((await listTools(bob.token)).status).toBe(401);
    await expect(bobSignsIn(clientId, redirectUri)).rejects.toThrow(/no form on the page/);
  }, 60_000);

  it("refuses a revoke sent without the page's CSRF token, and changes nothing", async () => {
    const bob = await bobSignsIn();
    await admin.page.reload();
    const sessionId = await admin.page
      .locator('li', { hasText: bob.clientId })
      .filter({ hasText: 'Session' })
      .locator('input[name="session"]')
      .getAttribute('value');

    // The browser's own cookies, a form without the token: what a forged cross-site form would send at best.
    const forged = await admin.context.request.post(`${served.url}/oauth/admin/revoke-session`, {
      form: { session: sessionId! },
    });

    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('Form expired');
    expect((await listTools(bob.token)).status).toBe(200);
  }, 60_000);

  it('answers 403 to a person who is not an administrator, and sends a browser with no session to sign in', async () => {
    const fresh = await chromium.browser.newContext();
    const bobPage = await openAdminPage('bob');
    try {
      const page = await fresh.newPage();
      await page.goto(`${served.url}/oauth/admin`);

      expect(new URL(page.url()).pathname).toMatch(/^\/oauth\/interaction\//);
      expect(await page.locator('input[autocomplete="current-password"]').count()).toBe(1);
      expect(bobPage.status).toBe(403);
      expect(await bobPage.page.textContent('h1')).toBe('Administrators only');
    } finally {
      await fresh.close();
      await bobPage.context.close();
    }
  }, 60_000);
});
