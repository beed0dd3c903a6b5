import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { METRIC_SERVICE } from '../../lambdas/core/metric-names.js';
import { requireZone } from '../../lambdas/core/time/zones.js';
import { parseAllowedOrigins } from '../../lambdas/mcp/http/origin-policy.js';
import {
  ALLOWED_ORIGINS_ENV,
  BOOKING_STATE_MACHINE_ARN_ENV,
  MEMORY_BUCKET_NAME_ENV,
  OAUTH_TOKENS_ENV,
} from '../../lambdas/runtime/environment-names.js';
import { grantTableAndDataKey } from './data-access.js';
import { objectGraphEnvironment } from './function-environment.js';
import type { GoogleOAuthClient } from './google-client.js';
import { grantMemoryBucket } from './memory-bucket.js';
import { grantMemorySearchEmbeddings, type MemorySearchEmbeddings } from './memory-search-embeddings.js';
import { grantMemorySync, type MemorySyncTarget } from './memory-sync-access.js';
import { meridianFunction } from './meridian-function.js';
import type { OutlookApp } from './outlook-app.js';

/** The handler `McpFunction` deploys; the benchmark bundles the same file. */
export const MCP_HANDLER_ENTRY = fileURLToPath(
  new URL('../../lambdas/handlers/mcp-http.ts', import.meta.url),
);

export interface McpFunctionProps {
  /** The table the document store reads and writes (`MERIDIAN_TABLE_NAME`). */
  readonly table: ITable;

  /**
   * The KMS key that wraps the data keys of the AWS Encryption SDK (`MERIDIAN_DATA_KEY_ARN`). It
   * may also be the table's key; the grants below hold either way.
   */
  readonly dataKey: IKey;

  /**
   * The bucket project memory's blobs live in (`MERIDIAN_MEMORY_BUCKET_NAME`); the function may
   * read, write, list and delete its objects.
   */
  readonly memoryBucket: IBucket;

  /**
   * The Express state machine book_slot runs (`MERIDIAN_BOOKING_STATE_MACHINE_ARN`). The function
   * may start synchronous executions of it, and nothing else of Step Functions.
   */
  readonly bookingStateMachine: IStateMachine;

  /**
   * IANA zone that tools use when a call names none (`MERIDIAN_TIMEZONE`), e.g. `Europe/Paris`.
   * Checked at synth time, so a typo fails `cdk synth` rather than every tool call.
   *
   * @default - not set: tools fall back to UTC and `get_temporal_context` says the zone is unconfigured
   */
  readonly defaultTimezone?: string;

  /**
   * The Google OAuth client connected Google accounts refresh their tokens with.
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
   * Browser origins whose pages may call MCP (`MERIDIAN_ALLOWED_ORIGINS`), e.g.
   * `https://app.example.com`. Checked at synth time.
   *
   * @default - none: a request carrying an Origin header is refused with 403; agents send none
   */
  readonly allowedOrigins?: readonly string[];

  /**
   * How search_context embeds memory: `bedrock` grants `bedrock:InvokeModel` on Titan Text
   * Embeddings v2 only and sets `MERIDIAN_EMBEDDINGS`.
   *
   * @default { model: 'local' }: the local embedder, nothing granted
   */
  readonly embeddings?: MemorySearchEmbeddings;

  /**
   * The organisation's bucket and KMS key project memory syncs through
   * (`MERIDIAN_MEMORY_SYNC_BUCKET`, `MERIDIAN_MEMORY_SYNC_KMS_KEY_ARN`); the function may read and
   * write objects under `projects/` there and encrypt and decrypt with the key.
   *
   * @default - none: nothing granted, and the sync tools answer that sync is not configured
   */
  readonly memorySync?: MemorySyncTarget;

  /**
   * Accept the access tokens of Meridian's authorization server (the stack's `OauthFunction`)
   * beside API keys (`MERIDIAN_OAUTH_TOKENS=on`); the function then also needs
   * `MERIDIAN_PUBLIC_URL`, which the front door sets. It reads the public key from the table and
   * needs no KMS call for it.
   *
   * @default false: API keys only
   */
  readonly acceptOauthTokens?: boolean;
}

/**
 * The Lambda function that serves MCP over HTTP: Node 24 on arm64, one ESM bundle, logging to
 * its own log group, reading and writing the table and the memory bucket and encrypting with the
 * data key, through a
 * role that may do exactly that.
 */
export class McpFunction extends Construct {
  /** The function itself, so the stack can add what only it knows (the API's URL). */
  readonly function: LambdaFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: McpFunctionProps) {
    super(scope, id);
    if (props.defaultTimezone !== undefined) requireZone(props.defaultTimezone, 'defaultTimezone');
    const origins = parseAllowedOrigins(props.allowedOrigins?.join(','), 'allowedOrigins');

    this.logGroup = new LogGroup(this, 'LogGroup', { retention: RetentionDays.ONE_MONTH });
    // An explicit role instead of the default one with AWSLambdaBasicExecutionRole, which may
    // write to every log group in the account; this one may write only to the group above.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description:
        'Meridian MCP function: its own logs, the table, the data key, the memory bucket, booking executions',
    });
    this.logGroup.grantWrite(role);
    grantTableAndDataKey(role, props.table, props.dataKey);
    grantMemoryBucket(role, role, props.memoryBucket);
    const embeddingsEnvironment = grantMemorySearchEmbeddings(
      this,
      role,
      props.embeddings ?? { model: 'local' },
    );
    const syncEnvironment = props.memorySync ? grantMemorySync(role, role, props.memorySync) : {};

    const fn = meridianFunction(this, 'Function', {
      entry: MCP_HANDLER_ENTRY,
      // Memory buys CPU: a cold start and the first tools/call (which loads the tools) are CPU-bound.
      memorySize: 1024,
      // API Gateway gives up on a REST integration after 29 s; running longer helps nobody.
      timeout: Duration.seconds(29),
      role,
      logGroup: this.logGroup,
      environment: {
        ...objectGraphEnvironment({
          table: props.table,
          dataKey: props.dataKey,
          defaultTimezone: props.defaultTimezone,
          googleOAuthClient: props.googleOAuthClient,
          outlookApp: props.outlookApp,
          serviceName: METRIC_SERVICE.mcp,
        }),
        [BOOKING_STATE_MACHINE_ARN_ENV]: props.bookingStateMachine.stateMachineArn,
        ...(origins.length > 0 ? { [ALLOWED_ORIGINS_ENV]: origins.join(',') } : {}),
        [MEMORY_BUCKET_NAME_ENV]: props.memoryBucket.bucketName,
        ...embeddingsEnvironment,
        ...syncEnvironment,
        ...(props.acceptOauthTokens ? { [OAUTH_TOKENS_ENV]: 'on' } : {}),
      },
      description: 'Meridian remote MCP server (Streamable HTTP, stateless)',
    });
    this.function = fn;
    props.bookingStateMachine.grantStartSyncExecution(fn);
  }
}
