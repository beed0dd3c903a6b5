import { CfnOutput } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import {
  SIGN_IN_CLIENT_ID_ENV,
  SIGN_IN_CLIENT_SECRET_ARN_ENV,
  SIGN_IN_ISSUER_ENV,
} from '../../lambdas/runtime/environment-names.js';
import { CognitoSignIn } from './cognito-sign-in.js';

/** The organization's own OpenID Connect provider (Okta, Entra ID, Google Workspace, …). */
export interface ExistingSignInIssuer {
  /** The issuer exactly as its discovery document's `issuer` says (`https://…`). */
  readonly issuer: string;
  /** Meridian's client id there. */
  readonly clientId: string;
  /**
   * Meridian's client secret there, kept in Secrets Manager; the function reads it at run time,
   * so it is in neither the template nor the function's environment.
   *
   * @default - none: Meridian is registered there as a public client (PKCE only)
   */
  readonly clientSecret?: ISecret;
}

export interface SignInIdentityProps {
  /**
   * Where the issuer sends people back after they sign in: `<base URL>/oauth/upstream/callback`.
   * Registered as the Cognito client's only callback URL; with an existing issuer, register it
   * there.
   */
  readonly callbackUrl: string;

  /**
   * The organization's existing OpenID Connect provider.
   *
   * @default - an Amazon Cognito user pool created here (CognitoSignIn)
   */
  readonly existingIssuer?: ExistingSignInIssuer;
}

/**
 * Who signs in to Meridian on AWS: the OpenID Connect issuer Meridian's authorization server sends
 * people to, and is a client of (docs/adr/0027). Meridian stays the authorization server MCP
 * clients talk to; the issuer only tells it who the person is.
 *
 * It hands the OAuth function what it needs as `environment` (the `MERIDIAN_SIGN_IN_*` variables:
 * the issuer, the client id and, for a confidential client, the secret's ARN) and
 * `grantClientSecretRead`.
 *
 * @example
 * const signIn = new SignInIdentity(this, 'SignIn', { callbackUrl: `${baseUrl}/oauth/upstream/callback` });
 * const oauth = new Function(this, 'OAuth', { …, environment: { ...signIn.environment } });
 * signIn.grantClientSecretRead(oauth);
 */
export class SignInIdentity extends Construct {
  /** The `MERIDIAN_SIGN_IN_*` variables for the function that runs the authorization server. */
  readonly environment: Record<string, string>;
  /** The user pool created when no existing issuer is given. */
  readonly cognito?: CognitoSignIn;
  readonly #clientSecret?: ISecret;

  constructor(scope: Construct, id: string, props: SignInIdentityProps) {
    super(scope, id);

    const existing = props.existingIssuer;
    if (existing) {
      this.#clientSecret = existing.clientSecret;
      this.environment = {
        [SIGN_IN_ISSUER_ENV]: existing.issuer,
        [SIGN_IN_CLIENT_ID_ENV]: existing.clientId,
        ...(existing.clientSecret
          ? { [SIGN_IN_CLIENT_SECRET_ARN_ENV]: existing.clientSecret.secretArn }
          : {}),
      };
      return;
    }

    const cognito = new CognitoSignIn(this, 'Cognito', { callbackUrl: props.callbackUrl });
    this.cognito = cognito;
    this.environment = {
      [SIGN_IN_ISSUER_ENV]: cognito.issuer,
      [SIGN_IN_CLIENT_ID_ENV]: cognito.client.userPoolClientId,
    };
    // Fixed output names, so that the README's commands can name them.
    new CfnOutput(this, 'UserPoolId', {
      value: cognito.userPool.userPoolId,
      description:
        'The Cognito user pool people sign in at: invite them with aws cognito-idp admin-create-user',
    }).overrideLogicalId('SignInUserPoolId');
    new CfnOutput(this, 'HostedSignInUrl', {
      value: cognito.hostedSignInUrl,
      description:
        "Cognito's hosted sign-in page for Meridian (MCP clients open it through Meridian's sign-in)",
    }).overrideLogicalId('SignInHostedUrl');
  }

  /**
   * Lets `grantee` read the client secret (`secretsmanager:GetSecretValue` on that secret only);
   * nothing when there is no secret (Cognito's public client, or a public client elsewhere).
   */
  grantClientSecretRead(grantee: IGrantable): Grant {
    if (!this.#clientSecret) return Grant.drop(grantee, 'read the sign-in client secret (there is none)');
    // Not ISecret.grantRead: it adds DescribeSecret, which the function never calls.
    return Grant.addToPrincipal({
      grantee,
      actions: ['secretsmanager:GetSecretValue'],
      resourceArns: [this.#clientSecret.secretArn],
    });
  }
}
