import { type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';
import type { AccessStore } from '../../core/access/access-store.js';
import type { Principal } from '../../core/access/rights.js';
import { toolsetsOfScope } from '../../core/auth/toolset-scopes.js';
import { isDomainError } from '../../core/errors.js';
import type { TokenVerifier } from '../../core/ports/index.js';
import { looksLikeJwt } from './jwt-shape.js';

/**
 * The claim of a Meridian access token that names the consent it was issued under. A consent is
 * stored as an API key whose secret nobody holds (authorization-server consent): its grants are
 * exactly what the person approved, `meridian grants` and `keys revoke` act on it as on a key.
 */
export const CONSENT_CLAIM = 'mrd_consent';

export interface JwtTokenVerifierOptions {
  /** The authorization server's public keys (a local JWK set in the embedded runtime). */
  keys: JWTVerifyGetKey;
  /** The only issuer whose tokens count. */
  issuer: string;
  /** The canonical MCP URL: a token for any other audience is refused (RFC 8707). */
  audience: string;
  access: AccessStore;
  /** Tokens that are not JWTs (API keys) go here, unchanged. */
  apiKeys: TokenVerifier;
  /** Seconds of clock difference tolerated on `exp`/`nbf`. @default 5 */
  clockToleranceSeconds?: number;
}

/**
 * Bearer tokens of both kinds behind one TokenVerifier: an API key as before, or an OAuth access
 * token (a JWT checked with jose for signature, `typ` at+jwt, `exp`, `iss` and `aud` = this
 * server) whose consent is still in force. The token is never passed on to anything else.
 *
 * @example
 * const verifier = new JwtTokenVerifier({ keys: createLocalJWKSet(jwks), issuer, audience: mcpUrl, access, apiKeys: access });
 */
export class JwtTokenVerifier implements TokenVerifier {
  constructor(private readonly options: JwtTokenVerifierOptions) {}

  async authenticate(token: string): Promise<Principal | undefined> {
    if (!looksLikeJwt(token)) return this.options.apiKeys.authenticate(token);
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.options.keys, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        typ: 'at+jwt',
        requiredClaims: ['exp', 'sub', CONSENT_CLAIM],
        clockTolerance: this.options.clockToleranceSeconds ?? 5,
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
    return this.consentPrincipal(String(payload[CONSENT_CLAIM]), payload.scope);
  }

  /** The consent's principal, or undefined once it is revoked or gone. */
  private async consentPrincipal(consentId: string, scope: unknown): Promise<Principal | undefined> {
    let consent: Awaited<ReturnType<AccessStore['describeKey']>>;
    try {
      consent = await this.options.access.describeKey(consentId);
    } catch (error) {
      if (isDomainError(error, 'NOT_FOUND')) return undefined;
      throw error;
    }
    if (consent.revoked_at) return undefined;
    const toolsets = toolsetsOfScope(typeof scope === 'string' ? scope : undefined);
    return { kind: 'api-key', keyId: consentId, label: consent.label, toolsets, consentedToolsets: toolsets };
  }
}
