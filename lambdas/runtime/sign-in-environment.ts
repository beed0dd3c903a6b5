import * as z from 'zod';
import { isLoopbackHost } from '../mcp/http/origin-policy.js';
import { optionalText } from './environment-fields.js';
import * as NAMES from './environment-names.js';
import type { UpstreamSignInConfig } from './oauth/upstream-sign-in-config.js';

/** Where people sign in, as the environment says: the issuer's config, and on AWS its secret's ARN. */
export type SignInSettings = UpstreamSignInConfig & {
  /** The client secret as a Secrets Manager ARN (AWS): the runtime resolves it. */
  clientSecretArn?: string;
};

/**
 * MERIDIAN_SIGN_IN_ISSUER: an https URL, or http on this machine (a test issuer). Kept exactly as
 * written: it must equal the `issuer` of the discovery document, trailing slash and all.
 */
export const signInIssuer = optionalText.transform((text, context) => {
  if (text === undefined) return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  const secure = url?.protocol === 'https:' || (url?.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (url && secure && !url.search && !url.hash) return text;
  context.addIssue({
    code: 'custom',
    message: `${NAMES.SIGN_IN_ISSUER_ENV}: "${text}" is not an https issuer URL. Expected e.g. "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123" (http only on localhost).`,
  });
  return z.NEVER;
});

/** The four variables, already parsed one by one. */
interface SignInVariables {
  issuer: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  clientSecretArn: string | undefined;
}

/** The problems of a partial setting, each naming what to set; none when it is whole or absent. */
export function signInProblems(vars: SignInVariables): string[] {
  const problems: string[] = [];
  if (vars.issuer && !vars.clientId)
    problems.push(
      `${NAMES.SIGN_IN_ISSUER_ENV} is set: set ${NAMES.SIGN_IN_CLIENT_ID_ENV} too, Meridian's client id at that issuer.`,
    );
  const dangling = [
    [NAMES.SIGN_IN_CLIENT_ID_ENV, vars.clientId],
    [NAMES.SIGN_IN_CLIENT_SECRET_ENV, vars.clientSecret],
    [NAMES.SIGN_IN_CLIENT_SECRET_ARN_ENV, vars.clientSecretArn],
  ].filter(([, value]) => value !== undefined && !vars.issuer);
  for (const [name] of dangling)
    problems.push(
      `${name} is set without ${NAMES.SIGN_IN_ISSUER_ENV}: set the issuer people sign in at, or unset it.`,
    );
  if (vars.clientSecret && vars.clientSecretArn)
    problems.push(
      `Set one of ${NAMES.SIGN_IN_CLIENT_SECRET_ENV} and ${NAMES.SIGN_IN_CLIENT_SECRET_ARN_ENV}, not both.`,
    );
  return problems;
}

/** The sign-in settings when an issuer is set (checked whole by {@link signInProblems}). */
export function signInSettings(vars: SignInVariables): SignInSettings | undefined {
  if (!vars.issuer || !vars.clientId) return undefined;
  return {
    issuer: vars.issuer,
    clientId: vars.clientId,
    ...(vars.clientSecret ? { clientSecret: vars.clientSecret } : {}),
    ...(vars.clientSecretArn ? { clientSecretArn: vars.clientSecretArn } : {}),
  };
}
