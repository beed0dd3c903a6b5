import type { OAuth2Client } from 'google-auth-library';
import { describeGoogleFailure, isTransient, isUnauthorized, toDomainError } from './google-errors.js';
import { type RetryOptions, retryWithBackoff } from './google-retry.js';

/**
 * Runs one Google API call with Meridian's failure policy: transient failures retried with backoff,
 * one forced token refresh on a 401, and every remaining failure turned into a DomainError.
 */
export type GoogleCall = <T>(operation: () => Promise<{ data: T }>, subject?: string) => Promise<T>;

/**
 * Builds the call wrapper for one OAuth client.
 *
 * @example
 * const call = createGoogleCall(auth, { baseDelayMs: 1 });
 * const event = await call(() => api.events.get({ calendarId, eventId }), `Event "${eventId}"`);
 */
export function createGoogleCall(auth: OAuth2Client, retry: RetryOptions): GoogleCall {
  return async (operation, subject) => {
    let refreshed = false;
    const attempt = async () => {
      try {
        return (await operation()).data;
      } catch (error) {
        // OAuth2Client refreshes by itself only when it believes the token expired; a token the
        // server stopped honouring earlier (revoked, clock skew) needs one refresh on our side.
        if (!refreshed && isClientError(error) && isUnauthorized(describeGoogleFailure(error))) {
          refreshed = true;
          auth.setCredentials({ ...auth.credentials, access_token: null, expiry_date: null });
          return (await operation()).data;
        }
        throw error;
      }
    };
    try {
      const shouldRetry = (error: unknown) =>
        isClientError(error) && isTransient(describeGoogleFailure(error));
      return await retryWithBackoff(attempt, shouldRetry, retry);
    } catch (error) {
      // Anything that is not an HTTP failure (a bug, a missing refresh token) keeps its own shape.
      if (!isClientError(error)) throw error;
      throw toDomainError(describeGoogleFailure(error), subject);
    }
  };
}

/** Errors raised by gaxios (the HTTP layer of the Google clients) carry the request `config`. */
function isClientError(error: unknown): boolean {
  return error instanceof Error && 'config' in error;
}
