import { createHash, randomBytes } from 'node:crypto';

/**
 * The OAuth side of the fake Google: a consent endpoint that redirects to a loopback redirect URI
 * with a code, and a token endpoint with the `authorization_code` (PKCE S256 checked) and
 * `refresh_token` grants. Access tokens are opaque and checked by the API routes.
 */

export interface OAuthAnswer {
  status: number;
  body?: unknown;
  location?: string;
}

interface PendingCode {
  challenge: string;
  redirectUri: string;
  scope: string;
  expiresAt: number;
}

const CODE_TTL_MS = 60_000;

export class FakeGoogleOAuth {
  private readonly accessTokens = new Map<string, number>();
  private readonly refreshTokens = new Set<string>();
  private readonly codes = new Map<string, PendingCode>();
  /** What the fake user answers on the consent screen. */
  consent: 'approve' | 'deny' = 'approve';
  /** Token endpoint calls by grant type. */
  readonly grants = { refresh_token: 0, authorization_code: 0 };

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
    readonly email: string,
    public accessTokenLifetimeSeconds: number,
  ) {}

  /** A refresh token as if the user had consented earlier. */
  issueRefreshToken(): string {
    const token = `1//fake-refresh-${randomBytes(16).toString('hex')}`;
    this.refreshTokens.add(token);
    return token;
  }

  isValidAccessToken(token: string): boolean {
    const expiresAt = this.accessTokens.get(token);
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  /** Server-side expiry: every access token issued so far stops working. */
  expireAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** The user revoked access: refresh tokens answer invalid_grant. */
  revokeRefreshTokens(): void {
    this.refreshTokens.clear();
  }

  /** GET /o/oauth2/v2/auth: the fake user consents at once and is redirected back. */
  consentScreen(params: URLSearchParams): OAuthAnswer {
    const redirectUri = params.get('redirect_uri') ?? '';
    if (params.get('client_id') !== this.clientId) return { status: 401, body: 'invalid_client' };
    if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(redirectUri)) {
      return { status: 400, body: 'redirect_uri_mismatch: only loopback redirects are allowed here' };
    }
    if (params.get('response_type') !== 'code' || params.get('code_challenge_method') !== 'S256') {
      return { status: 400, body: 'invalid_request: response_type=code and PKCE S256 are required' };
    }
    const target = new URL(redirectUri);
    const state = params.get('state');
    if (state !== null) target.searchParams.set('state', state);
    if (this.consent === 'deny') {
      target.searchParams.set('error', 'access_denied');
      return { status: 302, location: target.href };
    }
    const code = `4/fake-code-${randomBytes(16).toString('hex')}`;
    this.codes.set(code, {
      challenge: params.get('code_challenge') ?? '',
      redirectUri,
      scope: params.get('scope') ?? '',
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    target.searchParams.set('code', code);
    target.searchParams.set('scope', params.get('scope') ?? '');
    return { status: 302, location: target.href };
  }

  /** POST /token. */
  token(form: URLSearchParams): OAuthAnswer {
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
      return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    }
    const grant = form.get('grant_type');
    if (grant === 'refresh_token') {
      this.grants.refresh_token += 1;
      if (!this.refreshTokens.has(form.get('refresh_token') ?? '')) {
        return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      }
      return { status: 200, body: this.accessToken('https://www.googleapis.com/auth/calendar') };
    }
    if (grant === 'authorization_code') {
      this.grants.authorization_code += 1;
      return this.exchangeCode(form);
    }
    return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type.');
  }

  private exchangeCode(form: URLSearchParams): OAuthAnswer {
    const code = form.get('code') ?? '';
    const pending = this.codes.get(code);
    this.codes.delete(code); // codes are single-use
    if (!pending || pending.expiresAt < Date.now())
      return oauthError(400, 'invalid_grant', 'Malformed auth code.');
    if (form.get('redirect_uri') !== pending.redirectUri)
      return oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== pending.challenge) {
      return oauthError(400, 'invalid_grant', 'Invalid code verifier.');
    }
    const refreshToken = this.issueRefreshToken();
    const body: Record<string, unknown> = { ...this.accessToken(pending.scope), refresh_token: refreshToken };
    if (pending.scope.split(' ').includes('openid')) body.id_token = this.idToken();
    return { status: 200, body };
  }

  private accessToken(scope: string): Record<string, unknown> {
    const token = `ya29.fake-${randomBytes(16).toString('hex')}`;
    this.accessTokens.set(token, Date.now() + this.accessTokenLifetimeSeconds * 1000);
    return { access_token: token, expires_in: this.accessTokenLifetimeSeconds, scope, token_type: 'Bearer' };
  }

  /** An id_token shaped like Google's; the signature is a placeholder (nothing here verifies it). */
  private idToken(): string {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: 'https://accounts.google.com', aud: this.clientId, sub: '1081', email: this.email };
    return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ ...claims, email_verified: true, iat: now, exp: now + 3600 })}.c2ln`;
  }
}

function oauthError(status: number, error: string, description: string): OAuthAnswer {
  return { status, body: { error, error_description: description } };
}
