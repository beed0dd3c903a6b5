import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MsalTokenSource,
  signInWithBrowser,
  signInWithDeviceCode,
} from '../../../lambdas/adapters/outlook/outlook-tokens.js';
import { type FakeGraph, startFakeGraph } from '../../support/fake-graph.js';
import { needs, OPENSSL } from '../../support/system-parts.js';

/**
 * Plays the browser on Microsoft's sign-in page: the page posts its answer (code or error) to the
 * redirect URI with an auto-submitted form (response_mode=form_post); returns the final page.
 */
async function playBrowser(url: string): Promise<string> {
  const page = await (await fetch(url)).text();
  const action = /action="([^"]+)"/.exec(page)?.[1] ?? '';
  const fields = [...page.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [
    name!,
    value!,
  ]);
  const answer = await fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return answer.text();
}

/** The device-code sign-in through MSAL against the fake Microsoft identity platform. */
describe('signInWithDeviceCode', needs(OPENSSL), () => {
  let graph: FakeGraph;
  let settings: { clientId: string; authority: string };

  beforeAll(async () => {
    graph = await startFakeGraph({ email: 'dana@contoso.com' });
    settings = { clientId: graph.identity.clientId, authority: graph.identity.authority };
  });
  afterAll(async () => {
    await graph?.close();
  });

  it('returns a refresh token that later yields access tokens Graph accepts, and the account', async () => {
    const shown: string[] = [];

    const result = await signInWithDeviceCode(settings, (prompt) => {
      shown.push(prompt.message);
      graph.identity.answerDeviceCode(prompt.userCode, true);
    });

    expect(result.email).toBe('dana@contoso.com');
    expect(shown[0]).toMatch(/microsoft\.com\/devicelogin.*enter the code/);
    const token = await new MsalTokenSource(settings, result.refresh_token).accessToken();
    expect(graph.identity.isValidAccessToken(token)).toBe(true);
  });

  it('fails with PROVIDER_AUTH_FAILED saying to run the command again when the person declines', async () => {
    const attempt = signInWithDeviceCode(settings, (prompt) =>
      graph.identity.answerDeviceCode(prompt.userCode, false),
    );

    await expect(attempt).rejects.toMatchObject({
      code: 'PROVIDER_AUTH_FAILED',
      message: expect.stringMatching(/authorization_declined.*meridian connect outlook/),
    });
  });

  it('refuses an app registration the identity platform does not know', async () => {
    const attempt = signInWithDeviceCode({ ...settings, clientId: 'not-registered' }, () => undefined);

    await expect(attempt).rejects.toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
  });

  it('signs in through the browser (authorization code with PKCE on a loopback port)', async () => {
    let opened = '';

    const result = await signInWithBrowser(settings, async (url) => {
      opened = url;
      expect(await playBrowser(url)).toContain('Meridian is connected to Outlook');
    });

    expect(new URL(opened).searchParams.get('code_challenge_method')).toBe('S256');
    expect(new URL(opened).searchParams.get('redirect_uri')).toMatch(/^http:\/\/localhost:\d+/);
    expect(result.email).toBe('dana@contoso.com');
    const token = await new MsalTokenSource(settings, result.refresh_token).accessToken();
    expect(graph.identity.isValidAccessToken(token)).toBe(true);
  });

  it('fails with PROVIDER_AUTH_FAILED when the person refuses consent in the browser', async () => {
    graph.identity.consent = 'deny';
    try {
      const attempt = signInWithBrowser(settings, async (url) => {
        await playBrowser(url);
      });

      await expect(attempt).rejects.toMatchObject({
        code: 'PROVIDER_AUTH_FAILED',
        message: expect.stringMatching(/access_denied.*meridian connect outlook/),
      });
    } finally {
      graph.identity.consent = 'approve';
    }
  });
});
