import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Schedule } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { AUDIT_EXPORT_PREFIX } from '../../lambdas/core/audit/audit-export.js';
import {
  AUDIT_EXPORT_BUCKET_ENV,
  SERVICE_NAME_ENV,
  TABLE_NAME_ENV,
} from '../../lambdas/runtime/environment-names.js';
import { acknowledgeTableGrantWildcards, grantDocumentStore } from './data-access.js';
import { meridianFunction } from './meridian-function.js';
import { acknowledgeWildcardResource } from './nag-acknowledgements.js';
import { invokeOnSchedule } from './scheduled-invoke.js';

/** The handler the audit export function deploys. */
export const AUDIT_EXPORT_HANDLER_ENTRY = fileURLToPath(
  new URL('../../lambdas/handlers/audit-export-job.ts', import.meta.url),
);

export interface AuditExportScheduleProps {
  /** The table holding the audit log (`MERIDIAN_TABLE_NAME`). */
  readonly table: ITable;

  /** The Object Lock bucket from the data stack (`MERIDIAN_AUDIT_EXPORT_BUCKET`). */
  readonly bucket: IBucket;

  /**
   * How often the chains are exported: each run writes yesterday's and today's chain when either
   * changed since the last run, so a record rewritten in the table later than this after it was
   * written differs from a locked copy.
   *
   * @default Duration.hours(1)
   */
  readonly rate?: Duration;
}

/**
 * The scheduled export of the audit log to its Object Lock bucket: a Lambda function (Node 24 on
 * arm64, its own log group, a role that may make the document store's item calls, HeadObject and
 * PutObject under `audit/` in that bucket and use its key — no delete, no retention or legal-hold
 * calls, no bypass of governance retention) and an EventBridge Scheduler schedule that invokes it
 * every `rate` with `{}`. See docs/adr/0014.
 */
export class AuditExportSchedule extends Construct {
  readonly function: IFunction;
  readonly logGroup: LogGroup;
  readonly schedule: Schedule;
  /** How often the schedule runs the export. */
  readonly rate: Duration;

  constructor(scope: Construct, id: string, props: AuditExportScheduleProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'LogGroup', { retention: RetentionDays.ONE_MONTH });
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Meridian audit export: its own logs, the table, writing exports to the audit bucket',
    });
    this.logGroup.grantWrite(role);
    grantDocumentStore(role, props.table);
    acknowledgeTableGrantWildcards(role, props.table, {
      keyActionsWrittenBy:
        "is what DynamoDB needs of the table's customer-managed key to read and write items on the " +
        "function's behalf (CDK's set for a table's data grants); the statement names that one key.",
      indexWildcard:
        '<table ARN>/index/* is granted for Query only: the export lists the audit days on gsi1, ' +
        'the only index, and the wildcard covers the indexes of this one table.',
    });
    const exports = props.bucket.arnForObjects(`${AUDIT_EXPORT_PREFIX}*`);
    // GetObject for HeadObject (is this export there already?), PutObject to write one.
    Grant.addToPrincipal({
      grantee: role,
      actions: ['s3:GetObject', 's3:PutObject'],
      resourceArns: [exports],
    });
    props.bucket.encryptionKey?.grant(role, 'kms:Decrypt', 'kms:GenerateDataKey');
    acknowledgeWildcardResource(
      role,
      exports,
      `<bucket ARN>/${AUDIT_EXPORT_PREFIX}* is granted for the exports: their keys name the day and ` +
        'the content (chosen at run time), and the wildcard covers that prefix of this one bucket.',
    );

    this.function = meridianFunction(this, 'Function', {
      entry: AUDIT_EXPORT_HANDLER_ENTRY,
      memorySize: 512,
      timeout: Duration.minutes(5),
      role,
      logGroup: this.logGroup,
      environment: {
        [TABLE_NAME_ENV]: props.table.tableName,
        [AUDIT_EXPORT_BUCKET_ENV]: props.bucket.bucketName,
        [SERVICE_NAME_ENV]: 'meridian-audit-export',
      },
      description: 'Meridian: exports the audit log to its Object Lock bucket',
    });

    const rate = props.rate ?? Duration.hours(1);
    this.rate = rate;
    this.schedule = invokeOnSchedule(this, this.function, {
      rate,
      description: `Meridian: export the audit log to its Object Lock bucket, every ${rate.toHumanString()}`,
      purpose: 'the Meridian audit export function',
    });
  }
}
