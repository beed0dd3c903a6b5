import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { PUBLIC_URL_ENV } from '../../lambdas/runtime/environment-names.js';
import { AuditExportSchedule } from '../constructs/audit-export-schedule.js';
import { BookingWorkflow } from '../constructs/booking-workflow.js';
import type { GoogleOAuthClient } from '../constructs/google-client.js';
import { McpApi } from '../constructs/mcp-api.js';
import { McpFunction } from '../constructs/mcp-function.js';
import { MemoryCompressionSchedule } from '../constructs/memory-compression-schedule.js';
import type { MemorySearchEmbeddings } from '../constructs/memory-search-embeddings.js';
import { OauthFunction } from '../constructs/oauth-function.js';
import { OperationsAlarms } from '../constructs/operations-alarms.js';
import type { OutlookApp } from '../constructs/outlook-app.js';
import { SignInIdentity } from '../constructs/sign-in-identity.js';
import { SyncSchedule } from '../constructs/sync-schedule.js';
import type { SignInIssuerSettings } from './sign-in-issuer-context.js';

export interface ServiceStackProps extends StackProps {
  /** Meridian's table, from the data stack; the function reads and writes it. */
  readonly table: ITable;

  /** The data key, from the data stack; the function encrypts stored secrets with it. */
  readonly dataKey: IKey;

  /** The memory bucket, from the data stack; the MCP function keeps project memory's blobs in it. */
  readonly memoryBucket: IBucket;

  /**
   * A custom domain the MCP endpoint is served at (context `domainName`), with `certificate`.
   *
   * @default - none: the API's own `execute-api` host
   */
  readonly domainName?: string;

  /**
   * The ACM certificate for `domainName`, in the stack's region (context `certificateArn`).
   *
   * @default - none; required with `domainName`
   */
  readonly certificate?: ICertificate;

  /**
   * IANA zone tools use when a call names none (`MERIDIAN_TIMEZONE`).
   *
   * @default - not set: tools fall back to UTC
   */
  readonly defaultTimezone?: string;

  /**
   * The Google OAuth client for connected Google accounts (context `googleClientId` and
   * `googleClientSecret`).
   *
   * @default - none: Google calendars cannot be used by this deployment
   */
  readonly googleOAuthClient?: GoogleOAuthClient;

  /**
   * The Microsoft app registration connected Outlook accounts sign in and refresh with
   * (context `outlookClientId`, optional `outlookAuthority`).
   *
   * @default - none: Outlook calendars cannot be used by this deployment
   */
  readonly outlookApp?: OutlookApp;

  /**
   * How often connected calendars are synced into the shadow calendar (whole minutes).
   *
   * @default Duration.minutes(5)
   */
  readonly syncRate?: Duration;

  /**
   * How long a booking holds its slot (`LOCK_TTL_SECS`), 5–300 s.
   *
   * @default 30
   */
  readonly lockTtlSeconds?: number;

  /**
   * Browser origins whose pages may call MCP (context `allowedOrigins`, comma-separated).
   *
   * @default - none: requests with an Origin header are refused
   */
  readonly allowedOrigins?: readonly string[];

  /**
   * How project memory's search embeds text (context `embeddings=bedrock`, optionally
   * `embeddingDimension=512`).
   *
   * @default { model: 'local' }
   */
  readonly embeddings?: MemorySearchEmbeddings;

  /**
   * The organisation's existing bucket and KMS key that project memory syncs through (context
   * `memorySyncBucket` and `memorySyncKeyArn`). Neither is created nor changed here: the
   * deployment only gets permission to use them.
   *
   * @default - none: cloud sync is not configured
   */
  readonly memorySync?: { readonly bucketName: string; readonly keyArn: string };

  /**
   * The SNS topic the operations alarms notify (context `alarmTopicArn`); not created here, so
   * that the organization's on-call routing stays its own.
   *
   * @default - none: the alarms and the dashboard exist and notify nobody
   */
  readonly alarmTopicArn?: string;

  /**
   * The Object Lock bucket from the data stack that the audit log is exported to, every
   * `auditExportRate`.
   *
   * @default - none: the audit log is not exported
   */
  readonly auditExportBucket?: IBucket;

  /**
   * How often the audit log is exported (see AuditExportScheduleProps.rate).
   *
   * @default Duration.hours(1)
   */
  readonly auditExportRate?: Duration;

  /**
   * The organization's existing OpenID Connect provider people sign in at (context
   * `signInIssuer`, `signInClientId`, `signInClientSecretArn`): its issuer URL, Meridian's client
   * id there, and the complete ARN of the Secrets Manager secret holding the client secret (left
   * out for a public client).
   *
   * @default - an Amazon Cognito user pool created by this stack
   */
  readonly signInIssuer?: SignInIssuerSettings;
}

/**
 * Everything stateless that serves Meridian: the MCP function behind its HTTP API, the booking
 * workflow (an Express state machine and its step functions) that book_slot starts, the
 * scheduled sync of the shadow calendar and the scheduled compression of idle project memory. The stateful resources they use (table, key, bucket) come from
 * the retained `DataStack` as objects, so CDK wires the cross-stack references and the grants
 * name exactly those resources.
 */
export class ServiceStack extends Stack {
  readonly mcpFunction: McpFunction;
  readonly mcpApi: McpApi;
  /** Meridian's authorization server (ADR 0026), for the API to route the OAuth paths to. */
  readonly oauthFunction: OauthFunction;
  readonly syncSchedule: SyncSchedule;
  readonly memoryCompression: MemoryCompressionSchedule;
  readonly booking: BookingWorkflow;
  readonly operations: OperationsAlarms;
  readonly auditExport?: AuditExportSchedule;
  /** Who signs in: the issuer and client the OAuth function is given (`environment`, `grantClientSecretRead`). */
  readonly signInIdentity: SignInIdentity;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);

    this.booking = new BookingWorkflow(this, 'Booking', {
      table: props.table,
      dataKey: props.dataKey,
      defaultTimezone: props.defaultTimezone,
      googleOAuthClient: props.googleOAuthClient,
      outlookApp: props.outlookApp,
      lockTtlSeconds: props.lockTtlSeconds,
    });
    this.mcpFunction = new McpFunction(this, 'McpFunction', {
      // The stack always deploys sign-in (its OAuth function behind the same host).
      acceptOauthTokens: true,
      table: props.table,
      dataKey: props.dataKey,
      memoryBucket: props.memoryBucket,
      defaultTimezone: props.defaultTimezone,
      googleOAuthClient: props.googleOAuthClient,
      outlookApp: props.outlookApp,
      bookingStateMachine: this.booking.stateMachine,
      allowedOrigins: props.allowedOrigins,
      embeddings: props.embeddings,
      memorySync: props.memorySync && {
        bucket: Bucket.fromBucketName(this, 'MemorySyncBucket', props.memorySync.bucketName),
        key: Key.fromKeyArn(this, 'MemorySyncKey', props.memorySync.keyArn),
      },
    });
    this.oauthFunction = new OauthFunction(this, 'OauthFunction', {
      table: props.table,
      dataKey: props.dataKey,
    });
    this.mcpApi = new McpApi(this, 'McpApi', {
      handler: this.mcpFunction.function,
      signInHandler: this.oauthFunction.function,
      domainName: props.domainName,
      certificate: props.certificate,
    });
    // The canonical URL: the protected resource's identifier and the authorization server's issuer.
    for (const fn of [this.mcpFunction.function, this.oauthFunction.function])
      fn.addEnvironment(PUBLIC_URL_ENV, this.mcpApi.baseUrl);

    const signInIssuer = props.signInIssuer;
    this.signInIdentity = new SignInIdentity(this, 'SignIn', {
      callbackUrl: `${this.mcpApi.baseUrl}/oauth/upstream/callback`,
      existingIssuer: signInIssuer && {
        issuer: signInIssuer.issuer,
        clientId: signInIssuer.clientId,
        ...(signInIssuer.clientSecretArn
          ? {
              clientSecret: Secret.fromSecretCompleteArn(
                this,
                'SignInClientSecret',
                signInIssuer.clientSecretArn,
              ),
            }
          : {}),
      },
    });
    // Where people sign in: the OAuth function is the issuer's client.
    for (const [name, value] of Object.entries(this.signInIdentity.environment))
      this.oauthFunction.function.addEnvironment(name, value);
    this.signInIdentity.grantClientSecretRead(this.oauthFunction.function);

    this.syncSchedule = new SyncSchedule(this, 'SyncSchedule', {
      table: props.table,
      dataKey: props.dataKey,
      defaultTimezone: props.defaultTimezone,
      googleOAuthClient: props.googleOAuthClient,
      outlookApp: props.outlookApp,
      syncRate: props.syncRate,
    });

    this.memoryCompression = new MemoryCompressionSchedule(this, 'MemoryCompression', {
      table: props.table,
      memoryBucket: props.memoryBucket,
    });

    if (props.auditExportBucket)
      this.auditExport = new AuditExportSchedule(this, 'AuditExport', {
        table: props.table,
        bucket: props.auditExportBucket,
        rate: props.auditExportRate,
      });

    this.operations = new OperationsAlarms(this, 'Operations', {
      mcpFunction: this.mcpFunction.function,
      compensateFunction: this.booking.functions.compensate,
      syncFunction: this.syncSchedule.function,
      compressionFunction: this.memoryCompression.function,
      syncRate: props.syncRate ?? Duration.minutes(5),
      ...(this.auditExport
        ? {
            auditExport: { function: this.auditExport.function, rate: this.auditExport.rate },
          }
        : {}),
      ...(props.alarmTopicArn
        ? { alarmTopic: Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn) }
        : {}),
    });

    new CfnOutput(this, 'McpEndpointUrl', {
      value: this.mcpApi.endpointUrl,
      description: 'The MCP server URL to configure in clients (Streamable HTTP, POST only)',
    });
    if (this.mcpApi.domain)
      new CfnOutput(this, 'McpDomainTarget', {
        value: this.mcpApi.domain.regionalDomainName,
        description: `The target of the DNS record (CNAME or alias) for ${props.domainName}`,
      });
  }
}
