import { describe, expect, it } from 'vitest';
import { EnvironmentError, parseEnvironment } from '../../lambdas/runtime/environment.js';

/** The problems parseEnvironment names for `env`, or [] when it parses. */
function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    parseEnvironment(env);
    return [];
  } catch (error) {
    if (error instanceof EnvironmentError) return error.problems;
    throw error;
  }
}

describe('parseEnvironment: the organization issuer people sign in at', () => {
  it('is absent when no MERIDIAN_SIGN_IN_* is set: people sign in with passwords', () => {
    expect(parseEnvironment({}).signIn).toBeUndefined();
  });

  it('reads an https issuer, its client id and secret, keeping the issuer exactly as written', () => {
    const issuer = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123';

    const environment = parseEnvironment({
      MERIDIAN_SIGN_IN_ISSUER: issuer,
      MERIDIAN_SIGN_IN_CLIENT_ID: 'meridian',
      MERIDIAN_SIGN_IN_CLIENT_SECRET: 's3cret',
    });

    expect(environment.signIn).toEqual({ issuer, clientId: 'meridian', clientSecret: 's3cret' });
  });

  it('reads a public client (no secret), and a secret given as a Secrets Manager ARN', () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:meridian-idp';

    const environment = parseEnvironment({
      MERIDIAN_SIGN_IN_ISSUER: 'https://example.okta.com/',
      MERIDIAN_SIGN_IN_CLIENT_ID: 'meridian',
      MERIDIAN_SIGN_IN_CLIENT_SECRET_ARN: arn,
    });

    expect(environment.signIn).toEqual({
      issuer: 'https://example.okta.com/',
      clientId: 'meridian',
      clientSecretArn: arn,
    });
  });

  it('accepts http for an issuer on this machine only', () => {
    const local = {
      MERIDIAN_SIGN_IN_ISSUER: 'http://127.0.0.1:9000',
      MERIDIAN_SIGN_IN_CLIENT_ID: 'meridian',
    };

    expect(parseEnvironment(local).signIn?.issuer).toBe('http://127.0.0.1:9000');
    expect(problemsOf({ ...local, MERIDIAN_SIGN_IN_ISSUER: 'http://idp.example.com' })).toEqual([
      expect.stringMatching(
        /^MERIDIAN_SIGN_IN_ISSUER: "http:\/\/idp\.example\.com" is not an https issuer URL/,
      ),
    ]);
  });

  it('names what is missing or contradictory', () => {
    expect(problemsOf({ MERIDIAN_SIGN_IN_ISSUER: 'https://idp.example.com' })).toEqual([
      expect.stringContaining('set MERIDIAN_SIGN_IN_CLIENT_ID too'),
    ]);
    expect(problemsOf({ MERIDIAN_SIGN_IN_CLIENT_ID: 'meridian' })).toEqual([
      expect.stringContaining('MERIDIAN_SIGN_IN_CLIENT_ID is set without MERIDIAN_SIGN_IN_ISSUER'),
    ]);
    expect(
      problemsOf({
        MERIDIAN_SIGN_IN_ISSUER: 'https://idp.example.com',
        MERIDIAN_SIGN_IN_CLIENT_ID: 'meridian',
        MERIDIAN_SIGN_IN_CLIENT_SECRET: 'x',
        MERIDIAN_SIGN_IN_CLIENT_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:x',
      }),
    ).toEqual([expect.stringContaining('not both')]);
    expect(problemsOf({ MERIDIAN_SIGN_IN_ISSUER: 'not a url', MERIDIAN_SIGN_IN_CLIENT_ID: 'm' })).toEqual([
      expect.stringContaining('is not an https issuer URL'),
    ]);
  });
});
