import { OAuth2Client } from 'google-auth-library';
import { GoogleCalendarProvider } from '../../../lambdas/adapters/google/google-calendar-provider.js';
import type { CalendarRef } from '../../../lambdas/core/ports/index.js';
import {
  type FakeGoogleCalendar,
  type FakeGoogleOptions,
  startFakeGoogleCalendar,
} from '../../support/fake-google-calendar.js';

export const PREFIX = 'google/test-connection/';

/** A provider wired to a fresh fake: its own OAuth client, a refresh token, 1 ms backoff. */
export interface GoogleFixture {
  google: FakeGoogleCalendar;
  auth: OAuth2Client;
  provider: GoogleCalendarProvider;
  /** The account's primary calendar. */
  primary: CalendarRef;
  close(): Promise<void>;
}

export async function startGoogleFixture(
  options: FakeGoogleOptions & { maxAttempts?: number } = {},
): Promise<GoogleFixture> {
  const google = await startFakeGoogleCalendar(options);
  const auth = new OAuth2Client({
    clientId: google.clientId,
    clientSecret: google.clientSecret,
    endpoints: { oauth2TokenUrl: google.tokenUrl, oauth2AuthBaseUrl: google.authUrl },
  });
  auth.setCredentials({ refresh_token: google.oauth.issueRefreshToken() });
  const provider = new GoogleCalendarProvider({
    auth,
    calendarPrefix: PREFIX,
    rootUrl: google.rootUrl,
    retry: { baseDelayMs: 1, maxAttempts: options.maxAttempts ?? 5 },
  });
  const primary = provider.calendarRef({
    native_id: google.email,
    time_zone: options.timeZone ?? 'America/New_York',
  });
  return { google, auth, provider, primary, close: () => google.close() };
}
