import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoogleCalendarProvider } from '../../../lambdas/adapters/google/google-calendar-provider.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import { type GoogleFixture, PREFIX, startGoogleFixture } from './google-fixture.js';

const apiRequests = (fixture: GoogleFixture) => fixture.google.requests.length;

describe('GoogleCalendarProvider resilience', () => {
  let fixture: GoogleFixture;

  beforeEach(async () => {
    fixture = await startGoogleFixture();
  });
  afterEach(async () => {
    await fixture.close();
  });

  describe('rate limits and server errors', () => {
    it.each([
      ['403 rateLimitExceeded', 'rateLimit'],
      ['403 userRateLimitExceeded', 'userRateLimit'],
      ['429', 'tooManyRequests'],
    ] as const)('retries a %s twice and then succeeds', async (_label, kind) => {
      fixture.google.injectFaults(kind, 2);

      const calendars = await fixture.provider.listCalendars();

      expect(calendars.map((c) => c.native_id)).toEqual([fixture.google.email]);
      expect(apiRequests(fixture)).toBe(3);
    });

    it('answers PROVIDER_RATE_LIMITED after five rate-limited attempts', async () => {
      fixture.google.injectFaults('rateLimit', 50);

      await expect(fixture.provider.listCalendars()).rejects.toMatchObject({ code: 'PROVIDER_RATE_LIMITED' });
      expect(apiRequests(fixture)).toBe(5);
    });

    it('answers PROVIDER_ERROR after five 5xx answers, and succeeds when one retry suffices', async () => {
      fixture.google.injectFaults('serverError', 5);
      await expect(fixture.provider.listCalendars()).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
      expect(apiRequests(fixture)).toBe(5);

      fixture.google.injectFaults('unavailable', 1);
      await expect(fixture.provider.listCalendars()).resolves.toHaveLength(1);
      expect(apiRequests(fixture)).toBe(7);
    });

    it('does not retry a 403 that is not a rate limit (FORBIDDEN)', async () => {
      fixture.google.injectFaults('forbidden', 1);

      await expect(fixture.provider.listCalendars()).rejects.toMatchObject({ code: 'FORBIDDEN' });
      expect(apiRequests(fixture)).toBe(1);
    });

    it('turns a 400 into INVALID_INPUT carrying Google’s message, without retrying', async () => {
      const backwards = fixture.provider.createEvent(fixture.primary, {
        summary: 'Backwards',
        start: { date_time: '2026-03-10T10:00:00-04:00' },
        end: { date_time: '2026-03-10T09:00:00-04:00' },
      });

      await expect(backwards).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(backwards).rejects.toThrow('The specified time range is empty.');
      expect(apiRequests(fixture)).toBe(1);
    });

    it('does not create a twin when an insert is retried after a lost response', async () => {
      fixture.google.injectFaults('lostResponse', 1, { method: 'POST' });

      const created = await fixture.provider.createEvent(fixture.primary, {
        summary: 'Once only',
        start: { date_time: '2026-03-10T09:00:00-04:00' },
        end: { date_time: '2026-03-10T10:00:00-04:00' },
      });
      const page = await fixture.provider.listEvents(fixture.primary, {
        start: '2026-03-10T00:00:00Z',
        end: '2026-03-11T00:00:00Z',
        single_events: true,
        max_results: 10,
      });

      expect(page.events.map((e) => e.id)).toEqual([created.id]);
      expect(fixture.google.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'GET', 'GET']);
    });

    it('answers PROVIDER_ERROR when Google cannot be reached', async () => {
      const closed = await startGoogleFixture();
      await closed.close();
      const provider = new GoogleCalendarProvider({
        auth: fixture.auth,
        calendarPrefix: PREFIX,
        rootUrl: closed.google.rootUrl,
        retry: { baseDelayMs: 1, maxAttempts: 3 },
      });
      // Make the token refresh succeed against the live fake so that only the API is unreachable.
      await fixture.auth.getAccessToken();

      await expect(provider.listCalendars()).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    });
  });

  describe('access tokens', () => {
    it('exchanges the refresh token once and reuses the access token', async () => {
      await fixture.provider.listCalendars();
      await fixture.provider.listCalendars();

      expect(fixture.google.oauth.grants.refresh_token).toBe(1);
      expect(apiRequests(fixture)).toBe(2);
    });

    it('refreshes transparently when Google stops honouring the access token early', async () => {
      await fixture.provider.listCalendars();
      const before = fixture.auth.credentials.access_token;
      fixture.google.oauth.expireAccessTokens();

      await expect(fixture.provider.listCalendars()).resolves.toHaveLength(1);

      expect(fixture.google.oauth.grants.refresh_token).toBe(2);
      expect(apiRequests(fixture)).toBe(3);
      expect(fixture.auth.credentials.access_token).not.toBe(before);
    });

    it('refreshes before a request once the access token’s lifetime has passed', async () => {
      const shortLived = await startGoogleFixture({ accessTokenLifetimeSeconds: 1 });
      shortLived.auth.eagerRefreshThresholdMillis = 0;
      try {
        await shortLived.provider.listCalendars();
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        await shortLived.provider.listCalendars();

        expect(shortLived.google.oauth.grants.refresh_token).toBe(2);
        // Refreshed ahead of time: Google never had to refuse a request.
        expect(apiRequests(shortLived)).toBe(2);
      } finally {
        await shortLived.close();
      }
    });

    it('answers PROVIDER_AUTH_FAILED with the reconnect command when the grant was revoked', async () => {
      fixture.google.oauth.revokeRefreshTokens();

      const failure = fixture.provider.listCalendars();

      await expect(failure).rejects.toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
      await expect(failure).rejects.toThrow(/invalid_grant.*npx meridian connect google/);
      expect(apiRequests(fixture)).toBe(0);
    });

    it('answers PROVIDER_AUTH_FAILED when a fresh token is refused as well', async () => {
      fixture.google.injectFaults('unauthorized', 2);

      await expect(fixture.provider.listCalendars()).rejects.toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
      expect(apiRequests(fixture)).toBe(2);
      expect(fixture.google.oauth.grants.refresh_token).toBe(2);
    });

    it('recovers from a single 401 with one refresh', async () => {
      fixture.google.injectFaults('unauthorized', 1);

      await expect(fixture.provider.listCalendars()).resolves.toHaveLength(1);
      expect(fixture.google.oauth.grants.refresh_token).toBe(2);
    });
  });

  describe('errors', () => {
    it('never carries tokens or the client secret', async () => {
      await fixture.provider.listCalendars();
      const secrets = [
        fixture.auth.credentials.access_token ?? 'missing',
        fixture.auth.credentials.refresh_token ?? 'missing',
        fixture.google.clientSecret,
      ];
      fixture.google.injectFaults('serverError', 5);
      const caught = await fixture.provider.listCalendars().catch((error: unknown) => error);
      fixture.google.oauth.revokeRefreshTokens();
      fixture.google.oauth.expireAccessTokens();
      const authFailure = await fixture.provider.listCalendars().catch((error: unknown) => error);

      for (const error of [caught, authFailure]) {
        expect(isDomainError(error)).toBe(true);
        const rendered = `${inspect(error, { depth: 10, showHidden: true })} ${JSON.stringify(error)}`;
        for (const secret of secrets) expect(rendered).not.toContain(secret);
      }
    });
  });
});
