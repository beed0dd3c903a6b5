import { DomainError } from '../../core/errors.js';

/**
 * How failures of Microsoft Graph are classified and turned into DomainErrors. Only the status,
 * Graph's error code, its message and Retry-After are kept: never the request (it carries the
 * bearer token).
 */

export interface GraphFailure {
  /** HTTP status; undefined when no response arrived (network failure). */
  status?: number;
  /** Graph's `error.code` (e.g. `ErrorItemNotFound`, `syncStateNotFound`), or the OAuth `error`. */
  code?: string;
  message: string;
  /** Retry-After in milliseconds, when Graph sent one (429, 503). */
  retryAfterMs?: number;
  /** The failure came from the Microsoft identity platform (refresh token refused). */
  auth?: boolean;
}

/** Thrown by the Graph client for an answer that is not 2xx; the adapter maps it with toDomainError. */
export class GraphHttpError extends Error {
  constructor(readonly failure: GraphFailure) {
    super(failure.message);
    this.name = 'GraphHttpError';
  }
}

/** What a person must do when Microsoft no longer honours the stored sign-in. */
export const RECONNECT_HINT =
  'A person must sign in to Microsoft again: run `npx meridian connect outlook --key KEY_ID` (the key that should see the calendars), then remove the old connection.';

/** The sync-state codes with which Graph ends a delta round for good: start a new one. */
const SYNC_STATE_CODES = new Set(['syncStateNotFound', 'resyncRequired', 'syncStateInvalid']);

/** 429, 5xx and network failures: worth another try (honouring Retry-After). */
export function isTransient(failure: GraphFailure): boolean {
  if (failure.auth) return false;
  return failure.status === undefined || failure.status === 429 || failure.status >= 500;
}

/** A delta token Graph no longer knows: the sync must start over. */
export function isSyncStateLost(failure: GraphFailure): boolean {
  return failure.status === 410 || SYNC_STATE_CODES.has(failure.code ?? '');
}

/**
 * The DomainError for a failure that survived retries and the token refresh.
 *
 * @example
 * toDomainError({ status: 412, code: 'ErrorIrresolvableConflict', message: '…' }, 'Event "x"'); // STALE_WRITE
 */
export function toDomainError(failure: GraphFailure, subject = 'The resource'): DomainError {
  const details = { status: failure.status, reason: failure.code };
  const { status, message } = failure;
  if (failure.auth || status === 401) {
    return new DomainError(
      'PROVIDER_AUTH_FAILED',
      `Microsoft refused Meridian's sign-in for this Outlook account (${failure.code ?? 'unauthorized'}). ${RECONNECT_HINT}`,
      details,
    );
  }
  if (status === 429) {
    return new DomainError(
      'PROVIDER_RATE_LIMITED',
      'Microsoft Graph is throttling this mailbox; retries did not get through. Wait a minute and try again.',
      details,
    );
  }
  if (status === 404 || (status === 410 && !isSyncStateLost(failure))) {
    return new DomainError(
      'NOT_FOUND',
      `${subject} was not found in Outlook (it may have been deleted).`,
      details,
    );
  }
  if (status === 410) {
    return new DomainError(
      'PROVIDER_ERROR',
      `Outlook ended the sync (${failure.code}). Sync again.`,
      details,
    );
  }
  if (status === 412 || status === 409) {
    return new DomainError(
      'STALE_WRITE',
      `${subject} changed since it was read. Get it again and retry with its current etag.`,
      details,
    );
  }
  if (status === 400)
    return new DomainError('INVALID_INPUT', `Outlook rejected the request: ${message}`, details);
  if (status === 403) {
    return new DomainError(
      'FORBIDDEN',
      `Outlook refused the request: ${message} The signed-in account may only read this calendar.`,
      details,
    );
  }
  return new DomainError('PROVIDER_ERROR', `Microsoft Graph failed: ${message} Try again later.`, details);
}

/**
 * Reads Graph's error body (`{ error: { code, message } }`) and Retry-After from a response.
 *
 * @example
 * await failureOf(response); // { status: 429, code: 'TooManyRequests', message: '…', retryAfterMs: 2000 }
 */
export async function failureOf(response: Response): Promise<GraphFailure> {
  let code: string | undefined;
  let message = `HTTP ${response.status}`;
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    code = body.error?.code;
    message = body.error?.message ?? message;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    status: response.status,
    ...(code ? { code } : {}),
    message,
    ...(Number.isFinite(retryAfter) && response.headers.has('retry-after')
      ? { retryAfterMs: retryAfter * 1000 }
      : {}),
  };
}
