/**
 * Who a person signed in at the organization's issuer is, in Meridian: the name `meridian users`
 * knows them by (ADR 0013, addendum).
 *
 * Their verified `email` when the ID token has one and does not say `email_verified: false`
 * (Cognito, Okta and Google Workspace send the flag; Entra ID sends none, and the organization
 * vouches for its own directory). Otherwise the issuer's `sub`, prefixed with the issuer's host:
 * `sub` is unique only within its issuer, and a `:` never appears in an address, so such a name
 * cannot be taken for anyone's email.
 *
 * @example
 * upstreamPerson({ sub: '8f0e', email: 'Alice@Example.com', email_verified: true }, 'https://idp.example.com'); // 'alice@example.com'
 * upstreamPerson({ sub: '8f0e', email: 'alice@example.com', email_verified: false }, 'https://idp.example.com'); // 'idp.example.com:8f0e'
 */
export function upstreamPerson(
  claims: { sub: string; email?: unknown; email_verified?: unknown },
  issuer: string,
): string {
  // Older Cognito pools sent the flag as the text "false".
  const unverified = claims.email_verified === false || claims.email_verified === 'false';
  if (typeof claims.email === 'string' && claims.email !== '' && !unverified)
    return claims.email.toLowerCase();
  // Lower case, as `meridian users` stores every name.
  return `${new URL(issuer).host}:${claims.sub}`.toLowerCase();
}
