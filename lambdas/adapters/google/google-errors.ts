import { DomainError } from '../../core/errors.js';

/**
 * How failures of the Google client (gaxios errors) are classified and turned into DomainErrors.
 * Only the status, Google's reason and Google's message are kept: the gaxios error itself carries
 * the request config, Authorization header included, so it is never attached as a `cause`.
 */

export interface GoogleFailure {
  /** HTTP status; undefined when no response arrived (network failure). */
  status?: number;
  /** Google's `errors[0].reason` (e.g. `rateLimitExceeded`) or the OAuth `error` (e.g. `invalid_grant`). */
  reason?: string;
  /** Google's own message, safe to show. */
  message: string;
  /** The failure came from the OAuth token endpoint rather than the Calendar API. */
  oauth: boolean;
}

const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);
// Daily or per-calendar quotas: reported as rate limiting, but retrying within seconds cannot help.
const QUOTA_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded']);

/** The reconnect hint every auth failure ends with. */
export const RECONNECT_HINT = 'Reconnect the account with `npx meridian connect google`.';

/**
 * Reads what matters from a gaxios error (duck-typed: the class may come from another copy of gaxios).
 *
 * @example
 * describeGoogleFailure(error); // { status: 403, reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded', oauth: false }
 */
export function describeGoogleFailure(error: unknown): GoogleFailure {
  const response = (error as { response?: { status?: number; data?: unknown } } | undefined)?.response;
  if (!response?.status) {
    return { message: 'Google Calendar could not be reached.', oauth: false };
  }
  const data = response.data as
    | { error?: string | { message?: string; errors?: { reason?: string }[] }; error_description?: string }
    | undefined;
  if (typeof data?.error === 'string') {
    return {
      status: response.status,
      reason: data.error,
      message: data.error_description ?? data.error,
      oauth: true,
    };
  }
  return {
    status: response.status,
    reason: data?.error?.errors?.[0]?.reason,
    message: data?.error?.message ?? `HTTP ${response.status}`,
    oauth: false,
  };
}

/** Rate limits (429, 403 with a rate-limit reason), 5xx and network failures: worth another try. */
export function isTransient(failure: GoogleFailure): boolean {
  if (failure.oauth) return false;
  if (failure.status === undefined || failure.status >= 500 || failure.status === 429) return true;
  return failure.status === 403 && RATE_LIMIT_REASONS.has(failure.reason ?? '');
}

/** A Calendar API 401: the access token was refused, a fresh one may help. */
export function isUnauthorized(failure: GoogleFailure): boolean {
  return !failure.oauth && failure.status === 401;
}

/**
 * The DomainError for a failure that survived retries and refresh.
 *
 * @example
 * toDomainError({ status: 412, message: 'Precondition Failed', oauth: false }, 'Event "x"'); // STALE_WRITE
 */
export function toDomainError(failure: GoogleFailure, subject = 'The resource'): DomainError {
  const details = { status: failure.status, reason: failure.reason };
  const { status, message } = failure;
  if (failure.oauth || status === 401) {
    return new DomainError(
      'PROVIDER_AUTH_FAILED',
      `Google refused Meridian's credentials (${failure.reason ?? 'unauthorized'}). ${RECONNECT_HINT}`,
      details,
    );
  }
  const reason = failure.reason ?? '';
  if (status === 429 || (status === 403 && RATE_LIMIT_REASONS.has(reason))) {
    return new DomainError(
      'PROVIDER_RATE_LIMITED',
      'Google Calendar is rate-limiting this account; retries did not get through. Wait a minute and try again.',
      details,
    );
  }
  if (status === 403 && QUOTA_REASONS.has(reason)) {
    return new DomainError(
      'PROVIDER_RATE_LIMITED',
      `Google Calendar usage limits for this account are used up (${reason}): ${message} Try again in a few hours.`,
      details,
    );
  }
  if (status === 404 || status === 410) {
    return new DomainError(
      'NOT_FOUND',
      `${subject} was not found in Google Calendar (it may have been deleted).`,
      details,
    );
  }
  if (status === 412) {
    return new DomainError(
      'STALE_WRITE',
      `${subject} changed since it was read. Get it again and retry with its current etag.`,
      details,
    );
  }
  if (status === 400)
    return new DomainError('INVALID_INPUT', `Google Calendar rejected the request: ${message}`, details);
  if (status === 403) {
    return new DomainError(
      'FORBIDDEN',
      `Google Calendar refused the request: ${message} The connected account may only have read access to this calendar.`,
      details,
    );
  }
  return new DomainError('PROVIDER_ERROR', `Google Calendar failed: ${message} Try again later.`, details);
}
