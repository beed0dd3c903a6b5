import { z } from 'zod';
import { GoogleCalendarProvider } from '../adapters/google/google-calendar-provider.js';
import type { ConnectionRecord } from '../core/calendar/calendar-registry.js';
import type { ProviderFactory } from './provider-resolver.js';

/** What a connection's encrypted secret holds, per provider. */
export const GoogleSecret = z.object({ refresh_token: z.string().min(1) });
export const CalDavSecret = z.object({ password: z.string() });

/** Google OAuth client settings from the environment; undefined when Google is not configured. */
export function googleClientSettings(env: NodeJS.ProcessEnv) {
  const clientId = env.MERIDIAN_GOOGLE_CLIENT_ID?.trim();
  const clientSecret = env.MERIDIAN_GOOGLE_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) return undefined;
  return {
    clientId,
    clientSecret,
    // Overrides exist for tests and private deployments that proxy Google; unset in normal use.
    apiRoot: env.MERIDIAN_GOOGLE_API_ROOT?.trim() || undefined,
    tokenUrl: env.MERIDIAN_GOOGLE_TOKEN_URL?.trim() || undefined,
    authorizationUrl: env.MERIDIAN_GOOGLE_AUTH_URL?.trim() || undefined,
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
  const timezone = env.MERIDIAN_TIMEZONE?.trim() || undefined;
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
            // Loaded on first use: see google-client-loader.ts.
            const { OAuth2Client } = await import('../adapters/google/google-client-loader.js');
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
