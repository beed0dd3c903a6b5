import { timingSafeEqual } from 'node:crypto';
import * as openid from 'openid-client';
import type { DocumentStoreOidcAdapter } from '../../adapters/oauth/document-store-oidc-adapter.js';
import { upstreamPerson } from '../../core/auth/upstream-person.js';
import { isLoopbackHost } from '../../mcp/http/origin-policy.js';
import type { UpstreamSignInConfig } from './upstream-sign-in-config.js';

/** Where the issuer sends people back: register `<Meridian's URL>` + this path there as the redirect URI. */
export const UPSTREAM_CALLBACK_PATH = '/oauth/upstream/callback';

/** What the issuer is asked for: who the person is, and their address. */
const UPSTREAM_SCOPE = 'openid email';

/** A sign-in sent to the issuer and not yet back: the checks its answer must pass. */
interface PendingSignIn {
  sentState: string;
  nonce: string;
  codeVerifier: string;
  /**
   * The secret the starting browser holds in a cookie (upstream-callback-route.ts): the callback
   * is taken only from that browser. Without it, anyone could start a sign-in, hand the issuer's
   * URL to someone else, and resume the interaction as them once they answered.
   */
  browserKey: string;
}

/** Why an answer from the issuer was not taken, for the page the person sees. */
export type UpstreamRefusal =
  /** The state names no sign-in in progress here: forged, replayed, or from another sign-in. */
  | { kind: 'unknown-state' }
  /** The callback came back to a browser that did not start this sign-in (it lacks its cookie). */
  | { kind: 'other-browser' }
  /** The issuer said no (`error=access_denied`, …). */
  | { kind: 'issuer-error'; error: string; description: string | undefined }
  /** The code exchange or the ID token failed its checks (issuer, audience, nonce, expiry, signature). */
  | { kind: 'unverified'; reason: string };

export type UpstreamAnswer = { uid: string; person: string } | ({ uid?: string } & UpstreamRefusal);

export interface UpstreamSignInDeps {
  config: UpstreamSignInConfig;
  /** Meridian's own issuer URL: the redirect URI is it + {@link UPSTREAM_CALLBACK_PATH}. */
  baseUrl: string;
  /** Sign-ins in flight, by interaction uid, for as long as an interaction lives. */
  pending: DocumentStoreOidcAdapter;
  pendingTtlSeconds: number;
}

/** The uid a state belongs to: states are `<interaction uid>.<random>`, so a callback names its sign-in. */
function uidOf(state: string): string | undefined {
  const at = state.indexOf('.');
  return at > 0 ? state.slice(0, at) : undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Meridian as a relying party of the organization's OpenID Connect issuer, on panva's certified
 * `openid-client`: discovery (its `issuer` must equal the configured one; fetched once per
 * process), the authorization-code flow with PKCE S256, `state` and `nonce`, and the ID token's
 * checks (signature, `iss`, `aud`, `nonce`, `exp`) — none of it written here.
 *
 * @example
 * const upstream = new UpstreamSignIn({ config, baseUrl, pending, pendingTtlSeconds: 600 });
 * const { location, browserKey } = await upstream.start(uid); // browserKey: into a cookie
 * const answer = await upstream.finish(query, browserKeyFromCookie);
 */
export class UpstreamSignIn {
  private discovered: Promise<openid.Configuration> | undefined;
  readonly redirectUri: string;

  constructor(private readonly deps: UpstreamSignInDeps) {
    const issuer = new URL(deps.config.issuer);
    if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname)))
      throw new Error(
        `The sign-in issuer must be an https URL (http only on localhost): ${deps.config.issuer}`,
      );
    this.redirectUri = `${deps.baseUrl.replace(/\/$/, '')}${UPSTREAM_CALLBACK_PATH}`;
  }

  /** How long a sign-in sent to the issuer may take to come back. */
  get pendingTtlSeconds(): number {
    return this.deps.pendingTtlSeconds;
  }

  /** The issuer's host, to name it on pages. */
  get issuerHost(): string {
    return new URL(this.deps.config.issuer).host;
  }

  private configuration(): Promise<openid.Configuration> {
    const { issuer, clientId, clientSecret } = this.deps.config;
    const url = new URL(issuer);
    this.discovered ??= openid
      .discovery(
        url,
        clientId,
        clientSecret,
        clientSecret === undefined ? openid.None() : openid.ClientSecretBasic(clientSecret),
        {
          // http is accepted for an issuer on this machine only (checked above): a test issuer.
          ...(url.protocol === 'http:' ? { execute: [openid.allowInsecureRequests] } : {}),
          timeout: 10,
        },
      )
      .catch((error: unknown) => {
        // Not cached: the next sign-in tries again (the issuer may have been down a moment).
        this.discovered = undefined;
        throw error;
      });
    return this.discovered;
  }

  /**
   * Where to send the browser for interaction `uid`, and the key that browser must keep (in a
   * cookie) to bring the answer back; the checks of the answer are kept until it comes back.
   */
  async start(uid: string): Promise<{ location: URL; browserKey: string }> {
    const configuration = await this.configuration();
    const pending: PendingSignIn = {
      sentState: `${uid}.${openid.randomState()}`,
      nonce: openid.randomNonce(),
      codeVerifier: openid.randomPKCECodeVerifier(),
      browserKey: openid.randomState(),
    };
    await this.deps.pending.upsert(uid, { ...pending }, this.deps.pendingTtlSeconds);
    const location = openid.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: UPSTREAM_SCOPE,
      code_challenge: await openid.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.sentState,
      nonce: pending.nonce,
    });
    return { location, browserKey: pending.browserKey };
  }

  /**
   * The issuer's answer at the callback (its query), checked: the state must be the one sent for
   * that interaction, and is good once (a replayed callback finds nothing); the browser must hold
   * the key {@link start} gave (`browserKeyOf`, from its cookie), else the code is never exchanged
   * and the sign-in must start again; then the code is exchanged and the ID token
   * verified. Answers the interaction and the person, or why not.
   */
  async finish(
    query: URLSearchParams,
    browserKeyOf: (uid: string) => string | undefined,
  ): Promise<UpstreamAnswer> {
    const state = query.get('state') ?? '';
    const uid = uidOf(state);
    const pending = uid ? ((await this.deps.pending.find(uid)) as PendingSignIn | undefined) : undefined;
    if (!uid || !pending || !sameText(pending.sentState, state)) return { kind: 'unknown-state' };
    await this.deps.pending.destroy(uid);
    // A record written before browser keys existed has none: refused, like any other browser.
    if (typeof pending.browserKey !== 'string' || !sameText(pending.browserKey, browserKeyOf(uid) ?? ''))
      return { uid, kind: 'other-browser' };
    const error = query.get('error');
    if (error)
      return { uid, kind: 'issuer-error', error, description: query.get('error_description') ?? undefined };
    try {
      const configuration = await this.configuration();
      const tokens = await openid.authorizationCodeGrant(
        configuration,
        new URL(`${this.redirectUri}?${query}`),
        {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.sentState,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        },
      );
      const claims = tokens.claims();
      if (!claims) return { uid, kind: 'unverified', reason: 'no ID token' };
      return { uid, person: upstreamPerson(claims, this.deps.config.issuer) };
    } catch (error) {
      // The library's message says which check failed; it carries no secret (codes are single-use).
      return { uid, kind: 'unverified', reason: (error as Error).message };
    }
  }
}
