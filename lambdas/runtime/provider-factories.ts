import * as z from 'zod';
import type { ConnectionRecord } from '../core/calendar/calendar-registry.js';
import type { ConnectedProvider } from '../core/calendar/provider-kind.js';
import type { Environment } from './environment.js';
import type { ProviderFactory } from './provider-resolver.js';

/** What a connection's encrypted secret holds, per provider. */
export const GoogleSecret = z.object({ refresh_token: z.string().min(1) });
export const CalDavSecret = z.object({ password: z.string() });
/** Outlook's secret: the Microsoft refresh token and the account it signed in as. */
export const OutlookSecret = z.object({ refresh_token: z.string().min(1) });

export function calendarPrefix(connection: Pick<ConnectionRecord, 'provider' | 'connection_id'>): string {
  return `${connection.provider}/${connection.connection_id}/`;
}

/**
 * Adapter factories for connected accounts, configured from the parsed environment. A connection is
 * built from its record plus its decrypted secret (JSON, see GoogleSecret / CalDavSecret).
 */
export function providerFactories(
  environment: Pick<Environment, 'google' | 'outlook' | 'timezone'>,
): Partial<Record<ConnectedProvider, ProviderFactory>> {
  const { google, outlook, timezone } = environment;
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
    ...(outlook
      ? {
          outlook: async (
            connection: ConnectionRecord,
            secret: string,
            saveSecret?: (secret: string) => Promise<void>,
          ) => {
            // Loaded on first use: msal-node stays out of functions that reach no Outlook calendar.
            const [{ MsalTokenSource }, { OutlookCalendarProvider }] = await Promise.all([
              import('../adapters/outlook/outlook-tokens.js'),
              import('../adapters/outlook/outlook-calendar-provider.js'),
            ]);
            const tokens = new MsalTokenSource(
              { clientId: outlook.clientId, authority: outlook.authority },
              OutlookSecret.parse(JSON.parse(secret)).refresh_token,
              // Microsoft rotates the refresh token on use: keep the newest, so the connection
              // lives as long as it is used rather than the first token's 90 days.
              saveSecret && ((refreshToken) => saveSecret(JSON.stringify({ refresh_token: refreshToken }))),
            );
            return new OutlookCalendarProvider({
              tokens,
              calendarPrefix: calendarPrefix(connection),
              accountEmail: connection.account,
              ...(outlook.graphRoot ? { graphRoot: outlook.graphRoot } : {}),
            });
          },
        }
      : {}),
  };
}
