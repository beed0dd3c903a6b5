import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from '../../core/errors.js';
import { fixedDelay, retry } from '../../core/retry.js';

/**
 * The one place HTTP outcomes of a CalDAV server become DomainErrors. Every request — tsdav's and
 * our own — goes through {@link guardedFetch}, so a 401 in the middle of principal discovery and a
 * 412 on a PUT are reported the same way, whatever tsdav would have made of them (it often turns
 * statuses into untyped `Error`s or swallows them).
 */

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND', 'REPORT']);

export interface GuardOptions {
  /** Wait before the single retry of an idempotent request. Default 250 ms. */
  retryDelayMs?: number;
  /** Per-request limit. Default 20 s. */
  timeoutMs?: number;
}

/** Thrown for 401/403. The message never contains the password, only what to do. */
function authFailed(status: number): DomainError {
  return new DomainError(
    'PROVIDER_AUTH_FAILED',
    `The CalDAV server refused the credentials (HTTP ${status}): check the CalDAV username/password; reconnect with npx meridian connect caldav.`,
    { status },
  );
}

/**
 * Maps a non-success status to a DomainError; `undefined` for success and redirects.
 *
 * @example
 * statusError(412, 'Precondition Failed', 'PUT', 'http://dav/alice/work/x.ics')?.code; // 'STALE_WRITE'
 */
export function statusError(
  status: number,
  statusText: string,
  method: string,
  url: string,
): DomainError | undefined {
  if (status < 400) return undefined;
  const path = new URL(url).pathname;
  if (status === 401 || status === 403) return authFailed(status);
  if (status === 404 || status === 410) {
    return new DomainError('NOT_FOUND', `Nothing at ${path} on the CalDAV server (HTTP ${status}).`, {
      status,
      path,
    });
  }
  if (status === 412) {
    return new DomainError(
      'STALE_WRITE',
      'The event changed since you read it. Read it again (get_event) and retry with its new etag.',
      { status, path },
    );
  }
  if (status === 429) {
    return new DomainError(
      'PROVIDER_RATE_LIMITED',
      'The CalDAV server is rate limiting: retry in a minute.',
      { status },
    );
  }
  return new DomainError(
    'PROVIDER_ERROR',
    `The CalDAV server answered ${method} ${path} with HTTP ${status} ${statusText}. Retry later; if it persists, check the server.`,
    { status, path, method },
  );
}

/**
 * Wraps `fetch`: a per-request timeout, one retry of an idempotent request after a network error
 * or a 5xx, and every failure status thrown as a DomainError.
 *
 * @example
 * const dav = new DAVClient({ serverUrl, credentials, fetch: guardedFetch(fetch) });
 */
export function guardedFetch(base: typeof fetch, options: GuardOptions = {}): typeof fetch {
  const retryDelayMs = options.retryDelayMs ?? 250;
  const timeoutMs = options.timeoutMs ?? 20_000;
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const attempts = IDEMPOTENT.has(method) ? 2 : 1;
    let response: Response;
    try {
      response = await retry(
        async (attempt) => {
          const answer = await base(input, {
            ...init,
            signal: init?.signal ?? AbortSignal.timeout(timeoutMs),
          });
          // A 5xx with a try left is sent again; on the last try it is reported like any status.
          if (answer.status >= 500 && attempt < attempts) {
            await answer.body?.cancel();
            throw new ServerFailure();
          }
          return answer;
        },
        { maxAttempts: attempts, isRetryable: () => true, backoff: fixedDelay(retryDelayMs), sleep },
      );
    } catch (error) {
      throw unreachable(url, error);
    }
    const failure = statusError(response.status, response.statusText, method, url);
    if (failure) {
      await response.body?.cancel();
      throw failure;
    }
    return response;
  };
}

/** A 5xx answer to an attempt that will be retried; never the final outcome. */
class ServerFailure extends Error {}

function unreachable(url: string, error: unknown): DomainError {
  const cause = error as { name?: string; cause?: { code?: string } };
  const reason =
    cause.name === 'TimeoutError' ? 'timed out' : (cause.cause?.code ?? cause.name ?? 'network error');
  return new DomainError(
    'PROVIDER_ERROR',
    `Could not reach the CalDAV server at ${new URL(url).origin} (${reason}). Check the server URL and that it is up, then retry.`,
    { origin: new URL(url).origin },
    { cause: error },
  );
}
