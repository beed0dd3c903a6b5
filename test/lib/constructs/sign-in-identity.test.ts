import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SIGN_IN_CLIENT_ID_ENV,
  SIGN_IN_CLIENT_SECRET_ARN_ENV,
  SIGN_IN_ISSUER_ENV,
} from '../../../lambdas/runtime/environment-names.js';
import { signInIssuerFrom } from '../../../lib/stacks/sign-in-issuer-context.js';
import { meridianStacks, testApp } from '../synth-helpers.js';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:meridian/okta-AbC123';
const OKTA = { issuer: 'https://example.okta.com', clientId: '0oa1meridian', clientSecretArn: SECRET_ARN };

/** The service stack as bin/app.ts builds it, its template, and a role standing for the OAuth function. */
function serviceWith(signInIssuer?: typeof OKTA) {
  const { service } = meridianStacks(testApp(), signInIssuer ? { signInIssuer } : {});
  const grantee = new Role(service, 'OAuthFunctionRole', {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
  });
  service.signInIdentity.grantClientSecretRead(grantee);
  return { service, grantee, template: Template.fromStack(service) };
}

/** The value `token` renders to in `stack`'s template (a Ref, a Join, …). */
const rendered = (stack: Stack, token: string) => stack.resolve(token);

describe('SignInIdentity', () => {
  describe('by default, a Cognito user pool', () => {
    let built: ReturnType<typeof serviceWith>;
    beforeAll(() => {
      built = serviceWith();
    });

    it('creates a pool only administrators add people to, with MFA and threat protection', () => {
      built.template.resourceCountIs('AWS::Cognito::UserPool', 1);
      built.template.hasResource('AWS::Cognito::UserPool', {
        DeletionPolicy: 'Retain',
        Properties: {
          AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: true }),
          UsernameAttributes: ['email'],
          Policies: {
            PasswordPolicy: Match.objectLike({
              MinimumLength: 12,
              RequireLowercase: true,
              RequireUppercase: true,
              RequireNumbers: true,
              RequireSymbols: true,
            }),
          },
          MfaConfiguration: 'ON',
          EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
          UserPoolTier: 'PLUS',
          UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
          DeletionProtection: 'ACTIVE',
        },
      });
    });

    it('registers one public client for the code flow with PKCE, to the callback under the API', () => {
      const { service, template } = built;
      const callback = rendered(service, `${service.mcpApi.baseUrl}/oauth/upstream/callback`);
      template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
      template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
        GenerateSecret: false,
        AllowedOAuthFlowsUserPoolClient: true,
        AllowedOAuthFlows: ['code'],
        AllowedOAuthScopes: ['openid', 'email', 'profile'],
        CallbackURLs: [callback],
        ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
        SupportedIdentityProviders: ['COGNITO'],
        PreventUserExistenceErrors: 'ENABLED',
      });
    });

    it('gives the pool a Cognito domain whose prefix comes from the stack’s own id', () => {
      built.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', {
        Domain: {
          'Fn::Join': [
            '-',
            [
              'meridian',
              {
                'Fn::Select': [
                  0,
                  {
                    'Fn::Split': [
                      '-',
                      { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] },
                    ],
                  },
                ],
              },
            ],
          ],
        },
      });
    });

    it('gives the OAuth function the pool as issuer and the client id, and no secret', () => {
      const { service } = built;
      const cognito = service.signInIdentity.cognito!;
      const env = service.resolve(service.signInIdentity.environment) as Record<string, unknown>;

      expect(Object.keys(env).sort()).toEqual([SIGN_IN_CLIENT_ID_ENV, SIGN_IN_ISSUER_ENV].sort());
      expect(env[SIGN_IN_CLIENT_ID_ENV]).toEqual(rendered(service, cognito.client.userPoolClientId));
      expect(env[SIGN_IN_ISSUER_ENV]).toEqual({
        'Fn::Join': [
          '',
          [
            'https://cognito-idp.',
            { Ref: 'AWS::Region' },
            '.',
            { Ref: 'AWS::URLSuffix' },
            '/',
            rendered(service, cognito.userPool.userPoolId),
          ],
        ],
      });
    });

    it('grants no secret read when there is no secret', () => {
      const policies = built.template.findResources('AWS::IAM::Policy');
      expect(JSON.stringify(policies)).not.toContain('secretsmanager:');
    });

    it('outputs the pool id and the hosted sign-in page', () => {
      const { service, template } = built;
      const cognito = service.signInIdentity.cognito!;
      template.hasOutput('SignInUserPoolId', { Value: rendered(service, cognito.userPool.userPoolId) });
      const signInPage = JSON.stringify(template.toJSON().Outputs.SignInHostedUrl.Value);
      expect(signInPage).toContain('.auth.');
      expect(signInPage).toContain('.amazoncognito.com/login?client_id=');
      expect(signInPage).toContain('&response_type=code&redirect_uri=');
    });
  });

  describe('with the organization’s own issuer', () => {
    let built: ReturnType<typeof serviceWith>;
    beforeAll(() => {
      built = serviceWith(OKTA);
    });

    it('creates no Cognito resource and no sign-in output', () => {
      const resources = built.template.toJSON().Resources as Record<string, { Type: string }>;
      expect(Object.values(resources).filter((r) => r.Type.startsWith('AWS::Cognito::'))).toEqual([]);
      expect(Object.keys(built.template.toJSON().Outputs)).not.toContain('SignInUserPoolId');
    });

    it('gives the OAuth function the issuer, the client id and the secret’s ARN, never the secret', () => {
      expect(built.service.resolve(built.service.signInIdentity.environment)).toEqual({
        [SIGN_IN_ISSUER_ENV]: OKTA.issuer,
        [SIGN_IN_CLIENT_ID_ENV]: OKTA.clientId,
        [SIGN_IN_CLIENT_SECRET_ARN_ENV]: SECRET_ARN,
      });
    });

    it('lets the grantee read exactly that secret, and nothing else of Secrets Manager', () => {
      const { service, grantee, template } = built;
      const statements = Object.values(
        template.findResources('AWS::IAM::Policy', {
          Properties: { Roles: [rendered(service, grantee.roleName)] },
        }),
      ).flatMap((policy) => policy.Properties.PolicyDocument.Statement);

      expect(statements).toEqual([
        { Action: 'secretsmanager:GetSecretValue', Effect: 'Allow', Resource: SECRET_ARN },
      ]);
    });
  });

  describe('context', () => {
    it('takes the issuer and the client id, with or without a secret, or nothing at all', () => {
      expect(signInIssuerFrom(undefined, undefined, undefined)).toBeUndefined();
      expect(signInIssuerFrom(OKTA.issuer, OKTA.clientId, undefined)).toEqual({
        issuer: OKTA.issuer,
        clientId: OKTA.clientId,
      });
      expect(signInIssuerFrom(OKTA.issuer, OKTA.clientId, SECRET_ARN)).toEqual(OKTA);
    });

    it('refuses part of the settings, saying what to give', () => {
      const together = 'Give -c signInIssuer=https://… and -c signInClientId=… together';
      expect(() => signInIssuerFrom(OKTA.issuer, undefined, SECRET_ARN)).toThrow(together);
      expect(() => signInIssuerFrom(undefined, OKTA.clientId, undefined)).toThrow(together);
      expect(() => signInIssuerFrom(undefined, undefined, SECRET_ARN)).toThrow(together);
    });

    it('refuses an issuer that is not https, an empty client id and a partial secret ARN', () => {
      expect(() => signInIssuerFrom('http://example.okta.com', OKTA.clientId, undefined)).toThrow(
        "-c signInIssuer must be the issuer's https URL",
      );
      expect(() => signInIssuerFrom('example.okta.com', OKTA.clientId, undefined)).toThrow(
        "-c signInIssuer must be the issuer's https URL",
      );
      expect(() => signInIssuerFrom(OKTA.issuer, ' ', undefined)).toThrow('-c signInClientId must be');
      // Without the six-character suffix, a grant would need a wildcard over similarly named secrets.
      expect(() => signInIssuerFrom(OKTA.issuer, OKTA.clientId, SECRET_ARN.slice(0, -7))).toThrow(
        '-c signInClientSecretArn must be the complete ARN',
      );
    });

    it('fails the CDK app on partial settings before it synthesizes anything', async () => {
      // The app as `cdk synth` runs it, with context as the CLI passes it.
      const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
        env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ signInIssuer: OKTA.issuer }) },
        timeout: 60_000,
      });

      await expect(run).rejects.toMatchObject({
        stderr: expect.stringContaining('Give -c signInIssuer=https://… and -c signInClientId=… together'),
      });
    }, 60_000);
  });
});
