import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  DATA_KEY_ARN_ENV,
  SERVICE_NAME_ENV,
  TABLE_NAME_ENV,
} from '../../lambdas/runtime/environment-names.js';
import { grantTableAndDataKey } from './data-access.js';
import { meridianFunction } from './meridian-function.js';

/** The handler `OauthFunction` deploys. */
export const OAUTH_HANDLER_ENTRY = fileURLToPath(
  new URL('../../lambdas/handlers/oauth-http.ts', import.meta.url),
);

export interface OauthFunctionProps {
  /** The table the authorization server keeps clients, grants, tokens and its keys in. */
  readonly table: ITable;

  /**
   * The data key: the authorization server's secret is stored encrypted under it (created once
   * by GenerateDataKey, read back with Decrypt).
   */
  readonly dataKey: IKey;
}

/**
 * The Lambda function that runs Meridian's authorization server (ADR 0026): discovery,
 * registration, the sign-in and consent pages, token and revocation, for API Gateway to route
 * `/oauth/{proxy+}` and the two well-known discovery paths to. Node 24 on arm64, its own log
 * group, and a role that may use the table, encrypt and decrypt with the data key, and read the
 * sign-in client secret when there is one (`SignInIdentity` adds the `MERIDIAN_SIGN_IN_*` variables
 * and that grant). The stack sets `MERIDIAN_PUBLIC_URL` (the issuer) on it; without it the function
 * refuses to start.
 *
 * @example
 * const oauth = new OauthFunction(this, 'OauthFunction', { table, dataKey });
 * new McpApi(this, 'McpApi', { handler: mcp.function, signInHandler: oauth.function });
 */
export class OauthFunction extends Construct {
  /** A `Function`, not an `IFunction`: the front door adds `MERIDIAN_PUBLIC_URL` to it. */
  readonly function: LambdaFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: OauthFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'LogGroup', { retention: RetentionDays.ONE_MONTH });
    // An explicit role, as the MCP function's: its own log group only, no AWSLambdaBasicExecutionRole.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description:
        'Meridian OAuth function: its own logs, the table, the data key, the sign-in client secret',
    });
    this.logGroup.grantWrite(role);
    // GenerateDataKey creates the secret once, Decrypt reads it on each cold start.
    grantTableAndDataKey(role, props.table, props.dataKey);

    this.function = meridianFunction(this, 'Function', {
      entry: OAUTH_HANDLER_ENTRY,
      // Key derivation and scrypt password checks are CPU-bound; memory buys CPU.
      memorySize: 1024,
      // Under the HTTP API integration's 30 s limit.
      timeout: Duration.seconds(29),
      role,
      logGroup: this.logGroup,
      environment: {
        [TABLE_NAME_ENV]: props.table.tableName,
        [DATA_KEY_ARN_ENV]: props.dataKey.keyArn,
        [SERVICE_NAME_ENV]: 'meridian-oauth',
      },
      description: 'Meridian OAuth authorization server (discovery, registration, sign-in, consent, tokens)',
    });
  }
}
