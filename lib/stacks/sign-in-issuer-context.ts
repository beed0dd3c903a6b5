/**
 * The organization's own OpenID Connect provider as the service stack takes it (ServiceStackProps
 * `signInIssuer`): its issuer URL, Meridian's client id there, and the complete ARN of the Secrets
 * Manager secret holding Meridian's client secret (none for a public client).
 */
export interface SignInIssuerSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecretArn?: string;
}

/**
 * The organization's OpenID Connect provider, from context; none (the stack's Cognito user pool)
 * without any of the three. The issuer and the client id come together; the secret is left out
 * only for a client registered as public there. Partial or malformed settings are refused before
 * any stack is built, with what to give.
 *
 * @example
 * signInIssuerFrom(
 *   app.node.tryGetContext('signInIssuer'),
 *   app.node.tryGetContext('signInClientId'),
 *   app.node.tryGetContext('signInClientSecretArn'),
 * );
 */
export function signInIssuerFrom(
  issuer: unknown,
  clientId: unknown,
  clientSecretArn: unknown,
): SignInIssuerSettings | undefined {
  if (issuer === undefined && clientId === undefined && clientSecretArn === undefined) return undefined;
  if (issuer === undefined || clientId === undefined) {
    throw new Error(
      'Give -c signInIssuer=https://… and -c signInClientId=… together (with -c signInClientSecretArn=… ' +
        'for a confidential client), or none of them for a Cognito user pool the stack creates.',
    );
  }
  if (typeof issuer !== 'string' || !URL.canParse(issuer) || new URL(issuer).protocol !== 'https:') {
    throw new Error(
      `-c signInIssuer must be the issuer's https URL, as its /.well-known/openid-configuration names it (got ${JSON.stringify(issuer)}).`,
    );
  }
  if (typeof clientId !== 'string' || clientId.trim() === '') {
    throw new Error(
      `-c signInClientId must be Meridian's client id at the issuer (got ${JSON.stringify(clientId)}).`,
    );
  }
  if (clientSecretArn === undefined) return { issuer, clientId };
  if (
    typeof clientSecretArn !== 'string' ||
    !/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+-[A-Za-z0-9]{6}$/.test(
      clientSecretArn,
    )
  ) {
    throw new Error(
      '-c signInClientSecretArn must be the complete ARN of a Secrets Manager secret, with its six-character ' +
        'suffix (aws secretsmanager describe-secret --secret-id NAME --query ARN), so that the grant names ' +
        `that secret only (got ${JSON.stringify(clientSecretArn)}).`,
    );
  }
  return { issuer, clientId, clientSecretArn };
}
