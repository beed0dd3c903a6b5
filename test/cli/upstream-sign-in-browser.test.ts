import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';
import { launchChromium } from '../support/headless-chromium.js';
import { okTool } from '../support/mcp-client.js';
import { LoopbackOAuthClient } from '../support/oauth-test-client.js';
import { CHROMIUM, needs } from '../support/system-parts.js';
import { MERIDIAN_CLIENT, startUpstreamIssuer, type UpstreamIssuer } from '../support/upstream-issuer.js';

/*
 * `meridian serve` with MERIDIAN_SIGN_IN_* set: a person added with `users add --external` signs
 * in at the organization's issuer (a real second oidc-provider, configured as a Cognito user
 * pool), comes back, consents on Meridian's page, and the MCP SDK client's own OAuth support
 * gets a token that calls a tool. Headless Chromium is the person's browser.
 */

const parts = needs(CHROMIUM);

let dataDir: string;
let issuer: UpstreamIssuer;
let server: Awaited<ReturnType<typeof startServe>>;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let origin: string;

beforeAll(async () => {
  if (parts.skip) return;
  dataDir = await mkdtemp(join(tmpdir(), 'meridian-upstream-'));
  [issuer, chromium] = await Promise.all([
    startUpstreamIssuer({
      'u-alice': { password: 'issuer password', email: 'alice@example.com', email_verified: true },
    }),
    launchChromium(),
  ]);
  await meridian(['users', 'add', 'alice@example.com', '--external', '--data-dir', dataDir]);
  server = await startServe(['--data-dir', dataDir], {
    MERIDIAN_SIGN_IN_ISSUER: issuer.issuer,
    MERIDIAN_SIGN_IN_CLIENT_ID: MERIDIAN_CLIENT.id,
    MERIDIAN_SIGN_IN_CLIENT_SECRET: MERIDIAN_CLIENT.secret,
  });
  origin = new URL(server.url).origin;
  issuer.register(`${origin}/oauth/upstream/callback`);
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await chromium?.close();
  await issuer?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('meridian serve with the organization issuer', parts, () => {
  it('lists the person added with --external as one who signs in at the issuer', async () => {
    const listed = await meridian(['users', 'list', '--data-dir', dataDir]);

    expect(listed.stdout).toMatch(/^alice@example\.com {2}added \S+ {2}\(signs in at the issuer\)$/m);
  });

  it('signs a person in at the issuer, through consent, to a token that calls a tool', async () => {
    const oauthClient = await LoopbackOAuthClient.start('Upstream browser test');
    const url = new URL(`${origin}/mcp?toolsets=time`);
    try {
      await expect(
        new Client({ name: 'upstream-test', version: '1.0.0' }).connect(
          new StreamableHTTPClientTransport(url, { authProvider: oauthClient }),
        ),
      ).rejects.toThrow(UnauthorizedError);
      const page = await chromium.browser.newPage();
      let signedInAs: string | null;
      try {
        await page.goto(oauthClient.authorizationUrl!.href);
        // Meridian shows no password form: the browser is at the issuer's own page.
        expect(new URL(page.url()).origin).toBe(issuer.issuer);
        await page.fill('input[autocomplete="username"]', 'u-alice');
        await page.fill('input[autocomplete="current-password"]', 'issuer password');
        await page.click('button[name="sign_in"]');
        await page.waitForSelector('button[name="approve"]');
        expect(new URL(page.url()).origin).toBe(origin);
        signedInAs = await page.locator('strong').first().textContent();
        await page.click('button[name="approve"]');
        await page.waitForURL(/\/callback\?/);
      } finally {
        await page.close();
      }
      const params = await oauthClient.callbackParams();
      await new StreamableHTTPClientTransport(url, { authProvider: oauthClient }).finishAuth(params);
      const client = new Client({ name: 'upstream-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { authProvider: oauthClient }));

      const context = await okTool(client, 'get_temporal_context', {});

      expect(signedInAs).toBe('alice@example.com');
      expect(params.get('iss')).toBe(origin);
      expect(context).toHaveProperty('utc');
      await client.close();
    } finally {
      await oauthClient.close();
    }
  }, 60_000);
});
