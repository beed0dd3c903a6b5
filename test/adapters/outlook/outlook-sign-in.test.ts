import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MsalTokenSource, signInWithDeviceCode } from '../../../lambdas/adapters/outlook/outlook-tokens.js';
import { type FakeGraph, startFakeGraph } from '../../support/fake-graph.js';

/** The device-code sign-in through MSAL against the fake Microsoft identity platform. */
describe('signInWithDeviceCode', () => {
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
});
