import type { Principal } from '../access/rights.js';

/**
 * Turns a bearer token into the principal it stands for: the request pipeline's first step.
 * API keys (`AccessStore`) are the first verifier; an OAuth access token verifier (a JWT checked
 * against the issuer's keys) is meant to be the next, behind the same port.
 */
export interface TokenVerifier {
  /**
   * The token's principal, or undefined when the token is malformed, unknown, expired or revoked.
   * Throws STORAGE_ERROR when it cannot tell (the caller should retry, not be told "unknown").
   */
  authenticate(token: string): Promise<Principal | undefined>;
}
