/**
 * An organization's OpenID Connect issuer that people sign in at (a Cognito user pool, Okta,
 * Entra ID, Google Workspace). Meridian stays the authorization server MCP clients talk to and is
 * this issuer's client: the sign-in step of an interaction goes there instead of to the password
 * form (ADR 0013). Read from MERIDIAN_SIGN_IN_ISSUER / _CLIENT_ID / _CLIENT_SECRET(_ARN).
 */
export interface UpstreamSignInConfig {
  /** The issuer URL, exactly as its discovery document's `issuer`. */
  issuer: string;
  clientId: string;
  /** @default - none: a public client, PKCE only (a Cognito app client without a secret) */
  clientSecret?: string;
}
