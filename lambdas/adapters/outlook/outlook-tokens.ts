import { type AuthenticationResult, type Configuration, PublicClientApplication } from '@azure/msal-node';
import { DomainError } from '../../core/errors.js';
import type { AccessTokenSource } from './graph-client.js';
import { RECONNECT_HINT } from './graph-errors.js';

/**
 * Microsoft sign-in through `@azure/msal-node` (ADR 0019): the device-code flow for
 * `meridian connect outlook`, and access tokens at run time from the refresh token stored
 * (encrypted) with the connection. Only `Calendars.ReadWrite` is asked for; MSAL adds
 * `openid profile offline_access` (offline_access is what yields a refresh token).
 */

export const OUTLOOK_SCOPES = ['Calendars.ReadWrite'];

export interface MicrosoftAppSettings {
  /** The app registration's Application (client) ID. */
  clientId: string;
  /** `https://login.microsoftonline.com/<tenant>`; tenant `organizations` for any work account. */
  authority: string;
}

function msalConfig(settings: MicrosoftAppSettings): Configuration {
  const host = new URL(settings.authority).host;
  return {
    auth: {
      clientId: settings.clientId,
      authority: settings.authority,
      // A host other than Microsoft's (a test's identity platform) is trusted as given, with no
      // instance discovery call to login.microsoftonline.com.
      ...(host === 'login.microsoftonline.com' ? {} : { knownAuthorities: [host] }),
    },
  };
}

/**
 * Access tokens for one connection. The stored refresh token is redeemed with MSAL; the access
 * token is kept until a minute before it expires. Microsoft rotates the refresh token on each
 * redemption: the new one is read back from MSAL's cache, used for the next redemption and handed
 * to `onRotated` (the runtime stores it encrypted over the connection's secret).
 *
 * @example
 * const tokens = new MsalTokenSource(settings, refreshToken, (rotated) => save(rotated));
 * const token = await tokens.accessToken();
 */
export class MsalTokenSource implements AccessTokenSource {
  private readonly app: PublicClientApplication;
  private current: { token: string; expiresAtMs: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    settings: MicrosoftAppSettings,
    private refreshToken: string,
    /** Stores a rotated refresh token (best effort: the previous one stays valid until it expires). */
    private readonly onRotated?: (refreshToken: string) => Promise<void>,
  ) {
    this.app = new PublicClientApplication(msalConfig(settings));
  }

  accessToken(options: { forceRefresh?: boolean } = {}): Promise<string> {
    if (!options.forceRefresh && this.current && this.current.expiresAtMs - 60_000 > Date.now()) {
      return Promise.resolve(this.current.token);
    }
    // Concurrent calls share one redemption: each would otherwise rotate the refresh token.
    this.pending ??= this.redeem().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async redeem(): Promise<string> {
    let result: AuthenticationResult | null;
    try {
      // forceCache: MSAL keeps the answer, the rotated refresh token with it, in its cache.
      result = await this.app.acquireTokenByRefreshToken({
        refreshToken: this.refreshToken,
        scopes: OUTLOOK_SCOPES,
        forceCache: true,
      });
    } catch (error) {
      throw signInRefused(error);
    }
    if (!result?.accessToken) throw signInRefused(new Error('Microsoft answered without an access token.'));
    const rotated = cachedRefreshToken(this.app, result.account?.homeAccountId);
    if (rotated && rotated !== this.refreshToken) {
      this.refreshToken = rotated;
      await this.onRotated?.(rotated).catch(() => undefined);
    }
    this.current = {
      token: result.accessToken,
      expiresAtMs: result.expiresOn?.getTime() ?? Date.now() + 300_000,
    };
    return result.accessToken;
  }
}

/** The refresh token in MSAL's cache (MSAL keeps refresh tokens to itself otherwise). */
function cachedRefreshToken(
  app: PublicClientApplication,
  homeAccountId: string | undefined,
): string | undefined {
  const cache = JSON.parse(app.getTokenCache().serialize()) as {
    RefreshToken?: Record<string, { secret?: string; home_account_id?: string }>;
  };
  const entries = Object.values(cache.RefreshToken ?? {});
  return entries.find((t) => !homeAccountId || t.home_account_id === homeAccountId)?.secret;
}

export interface DeviceCodePrompt {
  /** Microsoft's sentence: open this page, enter this code. */
  message: string;
  userCode: string;
  verificationUri: string;
}

/**
 * Signs a person in with the device-code flow and returns the refresh token to store, with the
 * account's address. `show` tells the person where to go (the CLI prints it).
 *
 * @example
 * const { refresh_token, email } = await signInWithDeviceCode(settings, (p) => console.error(p.message));
 */
export async function signInWithDeviceCode(
  settings: MicrosoftAppSettings,
  show: (prompt: DeviceCodePrompt) => void,
): Promise<{ refresh_token: string; email: string | undefined }> {
  const app = new PublicClientApplication(msalConfig(settings));
  let result: AuthenticationResult | null;
  try {
    result = await app.acquireTokenByDeviceCode({
      scopes: OUTLOOK_SCOPES,
      deviceCodeCallback: (response) =>
        show({
          message: response.message,
          userCode: response.userCode,
          verificationUri: response.verificationUri,
        }),
    });
  } catch (error) {
    throw signInRefused(error);
  }
  return signedIn(app, result);
}

/**
 * Signs a person in with the authorization-code flow where a browser is at hand: MSAL listens on
 * a loopback port (127.0.0.1, PKCE S256, a random state), `openUrl` shows Microsoft's sign-in
 * page. The app registration needs the redirect URI `http://localhost` (Mobile and desktop).
 *
 * @example
 * const { refresh_token } = await signInWithBrowser(settings, (url) => console.error(`Open ${url}`));
 */
export async function signInWithBrowser(
  settings: MicrosoftAppSettings,
  openUrl: (url: string) => void | Promise<void>,
): Promise<{ refresh_token: string; email: string | undefined }> {
  const app = new PublicClientApplication(msalConfig(settings));
  let result: AuthenticationResult | null;
  try {
    result = await app.acquireTokenInteractive({
      scopes: OUTLOOK_SCOPES,
      openBrowser: async (url) => {
        await openUrl(url);
      },
      successTemplate: 'Meridian is connected to Outlook. You can close this tab.',
      errorTemplate: 'Meridian could not connect Outlook. You can close this tab.',
    });
  } catch (error) {
    throw signInRefused(error);
  }
  return signedIn(app, result);
}

/** The refresh token and account of a completed sign-in, read from MSAL's cache. */
function signedIn(
  app: PublicClientApplication,
  result: AuthenticationResult | null,
): { refresh_token: string; email: string | undefined } {
  const refreshToken = cachedRefreshToken(app, result?.account?.homeAccountId);
  if (!refreshToken) {
    throw new DomainError(
      'PROVIDER_AUTH_FAILED',
      'Microsoft signed you in but returned no refresh token: the app registration must allow the offline_access permission. Fix it and run `npx meridian connect outlook` again.',
    );
  }
  return { refresh_token: refreshToken, email: result?.account?.username };
}

/** An MSAL failure as the agent (or the person at the CLI) sees it: who must do what. */
function signInRefused(error: unknown): DomainError {
  const code = (error as { errorCode?: string } | undefined)?.errorCode ?? 'unknown';
  const text = error instanceof Error ? error.message.split('\n')[0] : String(error);
  if (['authorization_declined', 'expired_token', 'access_denied'].includes(code)) {
    return new DomainError(
      'PROVIDER_AUTH_FAILED',
      `Microsoft sign-in did not complete (${code}). Run \`npx meridian connect outlook\` again and approve the sign-in (a device code within 15 minutes).`,
      { reason: code },
    );
  }
  return new DomainError(
    'PROVIDER_AUTH_FAILED',
    `Microsoft refused Meridian's sign-in for this Outlook account (${code}: ${text}). ${RECONNECT_HINT}`,
    { reason: code },
  );
}
