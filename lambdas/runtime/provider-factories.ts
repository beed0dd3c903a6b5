import { z } from 'zod';
import type { ConnectionRecord } from '../core/calendar/calendar-registry.js';
import { configuredTimezone } from './aws-environment.js';
import {
  GOOGLE_API_ROOT_ENV,
  GOOGLE_AUTH_URL_ENV,
  GOOGLE_CLIENT_ID_ENV,
  GOOGLE_CLIENT_SECRET_ENV,
  GOOGLE_TOKEN_URL_ENV,
} from './environment-names.js';
import type { ProviderFactory } from './provider-resolver.js';

/** What a connection's encrypted secret holds, per provider. */
export const GoogleSecret = z.object({ refresh_token: z.string().min(1) });
export const CalDavSecret = z.object({ password: z.string() });

/** Google OAuth client settings from the environment; undefined when Google is not configured. */
export function googleClientSettings(env: NodeJS.ProcessEnv) {
  const clientId = env[GOOGLE_CLIENT_ID_ENV]?.trim();
  const clientSecret = env[GOOGLE_CLIENT_SECRET_ENV]?.trim();
  if (!clientId || !clientSecret) return undefined;
  return {
    clientId,
    clientSecret,
    // Overrides exist for tests and private deployments that proxy Google; unset in normal use.
    apiRoot: env[GOOGLE_API_ROOT_ENV]?.trim() || undefined,
    tokenUrl: env[GOOGLE_TOKEN_URL_ENV]?.trim() || undefined,
    authorizationUrl: env[GOOGLE_AUTH_URL_ENV]?.trim() || undefined,
  };
}

export function calendarPrefix(connection: Pick<ConnectionRecord, 'provider' | 'connection_id'>): string {
  return `${connection.provider}/${connection.connection_id}/`;
}

/**
 * Adapter factories for connected accounts, configured from the environment. A connection is
 * built from its record plus its decrypted secret (JSON, see GoogleSecret / CalDavSecret).
 */
export function providerFactories(
  env: NodeJS.ProcessEnv,
): Partial<Record<'google' | 'caldav', ProviderFactory>> {
  const google = googleClientSettings(env);
  const timezone = configuredTimezone(env);
  return {
    caldav: async (connection, secret) => {
      // Loaded on first use: tsdav and ical.js stay out of the functions' start-up code (in a
      // bundle, a chunk of their own). The syncing subclass: the same provider, plus the
      // listings the shadow calendar's sync needs.
      const { SyncingCalDavProvider } = await import('../adapters/caldav/caldav-sync.js');
      return new SyncingCalDavProvider({
        serverUrl: connection.server_url ?? '',
        username: connection.account,
        password: CalDavSecret.parse(JSON.parse(secret)).password,
        calendarPrefix: calendarPrefix(connection),
        ...(timezone ? { defaultTimezone: timezone } : {}),
      });
    },
    ...(google
      ? {
          google: async (connection: ConnectionRecord, secret: string) => {
            // Loaded on first use: see google-client-loader.ts. The adapter too, so that a function
            // whose first event reaches no Google calendar (a booking step on a native one) loads
            // none of it.
            const [{ OAuth2Client }, { GoogleCalendarProvider }] = await Promise.all([
              import('../adapters/google/google-client-loader.js'),
              import('../adapters/google/google-calendar-provider.js'),
            ]);
            const auth = new OAuth2Client({
              clientId: google.clientId,
              clientSecret: google.clientSecret,
              ...(google.tokenUrl ? { endpoints: { oauth2TokenUrl: google.tokenUrl } } : {}),
            });
            auth.setCredentials({ refresh_token: GoogleSecret.parse(JSON.parse(secret)).refresh_token });
            return new GoogleCalendarProvider({
              auth,
              calendarPrefix: calendarPrefix(connection),
              ...(google.apiRoot ? { rootUrl: google.apiRoot } : {}),
            });
          },
        }
      : {}),
  };
}
