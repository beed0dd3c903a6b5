import { setTimeout as sleep } from 'node:timers/promises';
import { exponentialJitter, retry } from '../../core/retry.js';
import { failureOf, GraphHttpError, isTransient, toDomainError } from './graph-errors.js';

/**
 * The Microsoft Graph v1.0 calls of the Outlook adapter, on plain `fetch` (see ADR 0019): bearer
 * token from a token source, one forced token refresh on a 401, transient failures (429, 5xx,
 * network) retried through the one retry loop (core/retry.ts) waiting what Retry-After says, and
 * every remaining failure turned into a DomainError. Times come back in UTC
 * (`Prefer: outlook.timezone="UTC"`) so that the mapping reads one form.
 */

/** Where access tokens come from (MSAL in production, see outlook-tokens.ts). */
export interface AccessTokenSource {
  /** A valid access token; `forceRefresh` asks for a new one (Graph refused the last). */
  accessToken(options?: { forceRefresh?: boolean }): Promise<string>;
}

export interface GraphRetryOptions {
  /** Total tries, the first included. @default 5 */
  maxAttempts?: number;
  /** Ceiling of the first backoff when Graph gives no Retry-After; doubles per retry. @default 500 */
  baseDelayMs?: number;
  /** Cap on any single wait, Retry-After included. @default 60_000 */
  maxDelayMs?: number;
  /** Waits out a pause; injected by tests to record pauses instead of sleeping. @default a timer */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface GraphRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** A path under the Graph root (`/me/calendars`), or a link Graph returned (under the same root). */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  ifMatch?: string;
  /** Extra `Prefer` values, e.g. `odata.maxpagesize=50`. */
  prefer?: string[];
  /** Names the thing in error messages, e.g. `Event "AAMk…"`. */
  subject?: string;
}

export class GraphClient {
  constructor(
    private readonly root: string,
    private readonly tokens: AccessTokenSource,
    private readonly retryOptions: GraphRetryOptions = {},
  ) {}

  /** Sends one request with Meridian's failure policy; resolves with the JSON body (undefined for 204). */
  async send<T>(request: GraphRequest): Promise<T> {
    const url = this.urlOf(request);
    let retryAfterMs: number | undefined;
    const jitter = exponentialJitter({
      baseDelayMs: this.retryOptions.baseDelayMs ?? 500,
      maxDelayMs: this.retryOptions.maxDelayMs ?? 60_000,
    });
    const maxDelayMs = this.retryOptions.maxDelayMs ?? 60_000;
    try {
      return await retry(() => this.attempt<T>(url, request), {
        maxAttempts: this.retryOptions.maxAttempts ?? 5,
        isRetryable: (error) => {
          if (!(error instanceof GraphHttpError) || !isTransient(error.failure)) return false;
          retryAfterMs = error.failure.retryAfterMs;
          return true;
        },
        // Graph says how long to back off when it throttles; without Retry-After, full jitter.
        backoff: (n, random) =>
          retryAfterMs === undefined ? jitter(n, random) : Math.min(retryAfterMs, maxDelayMs),
        ...(this.retryOptions.random ? { random: this.retryOptions.random } : {}),
        sleep: this.retryOptions.sleep ?? ((ms) => sleep(ms)),
      });
    } catch (error) {
      if (error instanceof GraphHttpError) throw toDomainError(error.failure, request.subject);
      throw error;
    }
  }

  /** One try, with one forced token refresh when Graph refuses the token. */
  private async attempt<T>(url: string, request: GraphRequest): Promise<T> {
    let response = await this.fetchOnce(url, request, false);
    if (response.status === 401) {
      await response.body?.cancel();
      response = await this.fetchOnce(url, request, true);
    }
    if (!response.ok) throw new GraphHttpError(await failureOf(response));
    // 204 (DELETE) and 202 (the accept/decline actions) carry no body.
    if (response.status === 204 || response.status === 202) {
      await response.body?.cancel();
      return undefined as T;
    }
    return (await response.json()) as T;
  }

  private async fetchOnce(url: string, request: GraphRequest, forceRefresh: boolean): Promise<Response> {
    const token = await this.tokens.accessToken({ forceRefresh });
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      prefer: ['outlook.timezone="UTC"', ...(request.prefer ?? [])].join(', '),
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.ifMatch) headers['if-match'] = request.ifMatch;
    try {
      return await fetch(url, {
        method: request.method ?? 'GET',
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
    } catch {
      throw new GraphHttpError({ message: 'Microsoft Graph could not be reached.' });
    }
  }

  /**
   * The URL of a request. A link Graph returned is followed only under the configured root: a
   * link elsewhere (from a tampered token or page) would receive the bearer token.
   */
  private urlOf(request: GraphRequest): string {
    const url = /^https?:\/\//.test(request.path) ? new URL(request.path) : new URL(this.root + request.path);
    if (!url.href.startsWith(`${this.root}/`)) {
      throw toDomainError({ status: 400, message: 'A paging link pointed outside Microsoft Graph.' });
    }
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    return url.href;
  }
}
