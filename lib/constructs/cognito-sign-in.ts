import { Aws, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  StandardThreatProtectionMode,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';

export interface CognitoSignInProps {
  /** Where Cognito sends people back after they sign in: Meridian's upstream callback. */
  readonly callbackUrl: string;
}

/**
 * The Amazon Cognito user pool people sign in at when the organization names no identity provider
 * of its own (docs/adr/0027). Meridian is this pool's only client and stays the authorization
 * server MCP clients talk to: Cognito only answers "who is this person".
 *
 * - Administrators invite people (`aws cognito-idp admin-create-user`); nobody signs up alone.
 * - Passwords of 12+ characters with every character class, and MFA required, by authenticator app
 *   (TOTP): the pool guards the organization's calendars and memory, a person signs in here only
 *   when a client connects (Meridian's refresh tokens do the rest), and TOTP costs nothing (SMS
 *   needs an SNS role and pays per message; email codes need SES).
 * - The Plus feature plan with threat protection enforced (compromised credentials, risky sign-ins).
 * - A public app client: code flow with PKCE, no secret (see the ADR for why), no implicit flow,
 *   no password flows through the API: people sign in on Cognito's hosted pages only.
 * - Retained, with deletion protection: it holds people's accounts and their MFA enrolments.
 */
export class CognitoSignIn extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;
  /** The OpenID Connect issuer: `https://cognito-idp.<region>.amazonaws.com/<pool id>`. */
  readonly issuer: string;
  /** Cognito's hosted sign-in page for Meridian's client. */
  readonly hostedSignInUrl: string;

  constructor(scope: Construct, id: string, props: CognitoSignInProps) {
    super(scope, id);

    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      userInvitation: {
        emailSubject: 'You are invited to Meridian',
        emailBody:
          'You can now sign in to Meridian as {username} with the temporary password {####}. ' +
          'At your first sign-in you choose your own password and set up an authenticator app.',
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(7),
        passwordHistorySize: 5,
      },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false, email: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.client = this.userPool.addClient('MeridianClient', {
      generateSecret: false,
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [props.callbackUrl],
      },
      // All false still writes ALLOW_REFRESH_TOKEN_AUTH alone; left out, Cognito would allow SRP
      // and custom auth through the API, which nothing here uses.
      authFlows: {
        user: false,
        userSrp: false,
        userPassword: false,
        adminUserPassword: false,
        custom: false,
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // Meridian reads the ID token once, at its callback, and issues its own tokens.
      idTokenValidity: Duration.minutes(5),
      accessTokenValidity: Duration.minutes(5),
      refreshTokenValidity: Duration.minutes(60),
    });

    this.domain = this.userPool.addDomain('Domain', {
      // Cognito domain prefixes are global per region, so a fixed one would collide between
      // stages and accounts. The first group of the stack's own UUID is unique to this stack,
      // stays the same for its lifetime, and (unlike an account id) tells a visitor nothing.
      cognitoDomain: {
        domainPrefix: Fn.join('-', [
          'meridian',
          Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', Aws.STACK_ID)))),
        ]),
      },
    });

    // Built from Ref and the region rather than the pool's ProviderURL attribute, which is the
    // same without the scheme; Refs are what every consumer of this value can resolve.
    this.issuer = `https://cognito-idp.${Stack.of(this).region}.${Stack.of(this).urlSuffix}/${this.userPool.userPoolId}`;
    this.hostedSignInUrl = this.domain.signInUrl(this.client, { redirectUri: props.callbackUrl });
  }
}
