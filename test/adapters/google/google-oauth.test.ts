import { OAuth2Client } from 'google-auth-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoogleCalendarProvider } from '../../../lambdas/adapters/google/google-calendar-provider.js';
import { authorizeWithLoopback, GOOGLE_SCOPES } from '../../../lambdas/adapters/google/google-oauth.js';
import { type FakeGoogleCalendar, startFakeGoogleCalendar } from '../../support/fake-google-calendar.js';

describe('authorizeWithLoopback', () => {
  let google: FakeGoogleCalendar;

  beforeEach(async () => {
    google = await startFakeGoogleCalendar({ email: 'bob@example.com' });
  });
  afterEach(async () => {
    await google.close();
  });

  const flow = (openUrl: (url: string) => Promise<void>, timeoutMs?: number) =>
    authorizeWithLoopback({
      clientId: google.clientId,
      clientSecret: google.clientSecret,
      endpoints: { authorizationUrl: google.authUrl, tokenUrl: google.tokenUrl },
      openUrl,
      timeoutMs,
    });

  /** Plays the browser: opens the consent URL and follows Google's redirect to the loopback server. */
  const browser = async (url: string) => {
    await fetch(url, { redirect: 'follow' });
  };

  it('returns a working refresh token and the account email', async () => {
    let consentUrl = new URL('http://unset');

    const result = await flow(async (url) => {
      consentUrl = new URL(url);
      await browser(url);
    });

    expect(result.email).toBe('bob@example.com');
    expect(result.refresh_token).toMatch(/^1\/\/fake-refresh-/);
    expect(Object.fromEntries(consentUrl.searchParams)).toMatchObject({
      access_type: 'offline',
      prompt: 'consent',
      scope: GOOGLE_SCOPES.join(' '),
      code_challenge_method: 'S256',
      response_type: 'code',
      client_id: google.clientId,
    });
    expect(consentUrl.searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/oauth2callback$/,
    );
    expect(consentUrl.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(google.oauth.grants.authorization_code).toBe(1);

    // The token is usable as is by the provider.
    const auth = new OAuth2Client({
      clientId: google.clientId,
      clientSecret: google.clientSecret,
      endpoints: { oauth2TokenUrl: google.tokenUrl },
    });
    auth.setCredentials({ refresh_token: result.refresh_token });
    const provider = new GoogleCalendarProvider({
      auth,
      calendarPrefix: 'google/c/',
      rootUrl: google.rootUrl,
    });
    expect((await provider.listCalendars()).map((c) => c.native_id)).toEqual(['bob@example.com']);
  });

  it('refuses a redirect whose state does not match (PROVIDER_AUTH_FAILED)', async () => {
    const forged = async (url: string) => {
      const consent = await fetch(url, { redirect: 'manual' });
      const target = new URL(consent.headers.get('location') ?? '');
      target.searchParams.set('state', 'forged-state-value');
      const answer = await fetch(target);
      expect(answer.status).toBe(400);
    };

    await expect(flow(forged)).rejects.toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
    expect(google.oauth.grants.authorization_code).toBe(0);
  });

  it('reports a refused consent with the reconnect hint', async () => {
    google.oauth.consent = 'deny';

    const failure = flow(browser);

    await expect(failure).rejects.toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
    await expect(failure).rejects.toThrow(/access_denied.*npx meridian connect google/);
  });

  it('gives up when the browser never comes back', async () => {
    const started = Date.now();

    await expect(flow(async () => undefined, 200)).rejects.toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('fails when the token endpoint refuses the code', async () => {
    // The browser hands the code to someone else first: codes are single-use.
    const stolen = async (url: string) => {
      const consent = await fetch(url, { redirect: 'manual' });
      const target = new URL(consent.headers.get('location') ?? '');
      await fetch(google.tokenUrl, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: target.searchParams.get('code') ?? '',
          client_id: google.clientId,
          client_secret: google.clientSecret,
          redirect_uri: 'http://127.0.0.1:1/elsewhere',
        }),
      });
      await fetch(target);
    };

    await expect(flow(stolen)).rejects.toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
  });
});
