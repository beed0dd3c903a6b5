import { GOOGLE_CLIENT_ID_ENV, GOOGLE_CLIENT_SECRET_ENV } from '../../lambdas/runtime/environment-names.js';

/**
 * The Google OAuth client (type "Desktop app") a deployment refreshes connected accounts' tokens
 * with. Google documents an installed app's client secret as not confidential (it ships inside
 * every copy of the app), so it travels as an environment variable like the client id; the
 * refresh tokens that do matter are stored encrypted under the data key.
 */
export interface GoogleOAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Environment entries for the functions that talk to Google; none without a client. */
export function googleClientEnvironment(client: GoogleOAuthClient | undefined): Record<string, string> {
  return client
    ? { [GOOGLE_CLIENT_ID_ENV]: client.clientId, [GOOGLE_CLIENT_SECRET_ENV]: client.clientSecret }
    : {};
}
