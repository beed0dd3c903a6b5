import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { AuditExportSchedule } from '../constructs/audit-export-schedule.js';
import { BookingWorkflow } from '../constructs/booking-workflow.js';
import type { GoogleOAuthClient } from '../constructs/google-client.js';
import { McpApi } from '../constructs/mcp-api.js';
import { McpFunction } from '../constructs/mcp-function.js';
import { MemoryCompressionSchedule } from '../constructs/memory-compression-schedule.js';
import type { MemorySearchEmbeddings } from '../constructs/memory-search-embeddings.js';
import { OperationsAlarms } from '../constructs/operations-alarms.js';
import type { OutlookApp } from '../constructs/outlook-app.js';
import { SyncSchedule } from '../constructs/sync-schedule.js';

export interface ServiceStackProps extends StackProps {
  /** Meridian's table, from the data stack; the function reads and writes it. */
  readonly table: ITable;

  /** The data key, from the data stack; the function encrypts stored secrets with it. */
  readonly dataKey: IKey;

  /** The memory bucket, from the data stack; the MCP function keeps project memory's blobs in it. */
  readonly memoryBucket: IBucket;

  /**
   * API Gateway stage name, the first path segment of the endpoint URL.
   *
   * @default 'prod'
   */
  readonly stageName?: string;

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
}

/**
 * Everything stateless that serves Meridian: the MCP function behind its REST API, the booking
 * workflow (an Express state machine and its step functions) that book_slot starts, the
 * scheduled sync of the shadow calendar and the scheduled compression of idle project memory. The stateful resources they use (table, key, bucket) come from
 * the retained `DataStack` as objects, so CDK wires the cross-stack references and the grants
 * name exactly those resources.
 */
export class ServiceStack extends Stack {
  readonly mcpFunction: McpFunction;
  readonly mcpApi: McpApi;
  readonly syncSchedule: SyncSchedule;
  readonly memoryCompression: MemoryCompressionSchedule;
  readonly booking: BookingWorkflow;
  readonly operations: OperationsAlarms;
  readonly auditExport?: AuditExportSchedule;

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
    this.mcpApi = new McpApi(this, 'McpApi', {
      handler: this.mcpFunction.function,
      stageName: props.stageName,
    });

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
  }
}
