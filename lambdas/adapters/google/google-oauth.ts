import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CodeChallengeMethod, type Credentials, OAuth2Client } from 'google-auth-library';
import { DomainError } from '../../core/errors.js';
import { describeGoogleFailure, RECONNECT_HINT, toDomainError } from './google-errors.js';

/**
 * The installed-app OAuth flow for `meridian connect google`: a one-shot HTTP server on
 * 127.0.0.1 (ephemeral port) receives Google's redirect, PKCE (S256) binds the code to this
 * process, and a random `state` ties the redirect to the consent URL we opened.
 */

/** Read-write access to calendars; `openid email` only to learn which account consented. */
export const GOOGLE_SCOPES = ['https://www.googleapis.com/auth/calendar', 'openid', 'email'];

export interface LoopbackOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** Shows the consent URL to the user: print it, open a browser (tests fetch it). */
  openUrl: (url: string) => void | Promise<void>;
  /** How long to wait for the browser to come back. @default 300_000 (5 minutes) */
  timeoutMs?: number;
  /** Google's endpoints; overridden in tests to point at a local fake. */
  endpoints?: { authorizationUrl?: string; tokenUrl?: string };
}

export interface LoopbackOAuthResult {
  refresh_token: string;
  /** The account that consented, from the id_token, when Google sent one. */
  email?: string;
}

const CALLBACK_PATH = '/oauth2callback';

/**
 * Runs the consent flow and returns the refresh token to store for the connection.
 * Fails with PROVIDER_AUTH_FAILED when the user refuses, the state does not match, the wait
 * times out or Google refuses the code.
 *
 * @example
 * const { refresh_token, email } = await authorizeWithLoopback({
 *   clientId, clientSecret, openUrl: (url) => console.error(`Open this URL to connect Google: ${url}`),
 * });
 */
export async function authorizeWithLoopback(options: LoopbackOAuthOptions): Promise<LoopbackOAuthResult> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  try {
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACK_PATH}`;
    const client = new OAuth2Client({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      redirectUri,
      endpoints: {
        ...(options.endpoints?.authorizationUrl && { oauth2AuthBaseUrl: options.endpoints.authorizationUrl }),
        ...(options.endpoints?.tokenUrl && { oauth2TokenUrl: options.endpoints.tokenUrl }),
      },
    });
    const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
    const state = randomBytes(32).toString('base64url');
    const url = client.generateAuthUrl({
      access_type: 'offline',
      // Without a fresh consent Google omits the refresh token for an app the user approved before.
      prompt: 'consent',
      scope: GOOGLE_SCOPES,
      state,
      code_challenge_method: CodeChallengeMethod.S256,
      code_challenge: codeChallenge,
    });
    const code = waitForCode(server, state, options.timeoutMs ?? 300_000);
    // If opening the URL fails, the wait is abandoned; its later rejection must not go unhandled.
    code.catch(() => undefined);
    await options.openUrl(url);
    return await exchange(client, await code, codeVerifier);
  } finally {
    // Idle only: the browser's page ("you can close this tab") must not be cut off mid-response.
    server.closeIdleConnections();
    server.close();
  }
}

/** Resolves with the authorization code from the first callback request; other paths get 404. */
function waitForCode(server: Server, state: string, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(authFailed(`No answer came back from the browser within ${Math.round(timeoutMs / 1000)} s.`));
    }, timeoutMs);
    server.once('close', () => clearTimeout(timer));
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== CALLBACK_PATH) {
        res.writeHead(404).end();
        return;
      }
      clearTimeout(timer);
      const failure = callbackFailure(url.searchParams, state);
      const page = failure
        ? 'Meridian could not connect Google Calendar.'
        : 'Meridian is connected to Google Calendar.';
      res
        .writeHead(failure ? 400 : 200, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`${page} You can close this tab.`);
      if (failure) reject(authFailed(failure));
      else resolve(url.searchParams.get('code') ?? '');
    });
  });
}

function callbackFailure(params: URLSearchParams, state: string): string | undefined {
  const returned = Buffer.from(params.get('state') ?? '');
  const expected = Buffer.from(state);
  // A redirect we did not start (forged or stale) must not be able to plant its own code.
  if (returned.length !== expected.length || !timingSafeEqual(returned, expected)) {
    return 'The redirect did not carry the state Meridian sent (possible forged request).';
  }
  const error = params.get('error');
  if (error) return `Google answered "${error}" (was consent refused?).`;
  if (!params.get('code')) return 'The redirect carried no authorization code.';
  return undefined;
}

async function exchange(
  client: OAuth2Client,
  code: string,
  codeVerifier: string,
): Promise<LoopbackOAuthResult> {
  let tokens: Credentials;
  try {
    ({ tokens } = await client.getToken({ code, codeVerifier }));
  } catch (error) {
    throw toDomainError(describeGoogleFailure(error), 'The authorization code');
  }
  if (!tokens.refresh_token) {
    throw authFailed(
      'Google returned no refresh token. Remove Meridian at https://myaccount.google.com/permissions first.',
    );
  }
  const email = tokens.id_token ? emailFromIdToken(tokens.id_token) : undefined;
  return email ? { refresh_token: tokens.refresh_token, email } : { refresh_token: tokens.refresh_token };
}

/**
 * The `email` claim of an id_token. The signature is not checked: the token came straight from
 * Google's token endpoint over TLS in exchange for our code, which OpenID Connect Core §3.1.3.7
 * accepts in place of signature validation; the email is only shown as a label.
 */
function emailFromIdToken(idToken: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      email?: unknown;
    };
    return typeof payload.email === 'string' ? payload.email : undefined;
  } catch {
    return undefined;
  }
}

function authFailed(reason: string): DomainError {
  return new DomainError(
    'PROVIDER_AUTH_FAILED',
    `Connecting Google Calendar failed: ${reason} ${RECONNECT_HINT}`,
  );
}
