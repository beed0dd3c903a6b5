import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Schedule } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import {
  MEMORY_BUCKET_NAME_ENV,
  SERVICE_NAME_ENV,
  TABLE_NAME_ENV,
} from '../../lambdas/runtime/environment-names.js';
import { acknowledgeTableGrantWildcards, grantDocumentStore } from './data-access.js';
import { grantMemoryBucket } from './memory-bucket.js';
import { meridianFunction } from './meridian-function.js';
import { invokeOnSchedule } from './scheduled-invoke.js';

/** The handler the memory compression function deploys. */
export const MEMORY_COMPRESSION_HANDLER_ENTRY = fileURLToPath(
  new URL('../../lambdas/handlers/memory-compression-job.ts', import.meta.url),
);

/**
 * How often idle contexts are looked for: a context is compressed between 30 and 35 minutes after
 * its last write. The embedded runtime's timer has the same default.
 */
export const MEMORY_COMPRESSION_RATE = Duration.minutes(5);

/** A run stops visiting projects a minute before this (the handler's STOP_MARGIN_MS). */
const COMPRESSION_TIMEOUT = Duration.minutes(5);

export interface MemoryCompressionScheduleProps {
  /** The table holding project memory and its idle index (`MERIDIAN_TABLE_NAME`). */
  readonly table: ITable;

  /** The memory bucket: compressed bodies over the size threshold go there (`MERIDIAN_MEMORY_BUCKET_NAME`). */
  readonly memoryBucket: IBucket;
}

/**
 * The scheduled compression of idle project memory (issue 10: contexts idle for 30 minutes are
 * compressed whether or not anyone reads them): a Lambda function (Node 24 on arm64, its own log
 * group, a role that may make the document store's item calls (get, put, delete, batches, query) and
 * use the memory bucket — no Scan, no secrets) and an EventBridge Scheduler schedule that invokes
 * it every {@link MEMORY_COMPRESSION_RATE}. The sweep reads gsi1 only, never the whole table: the
 * idle index and the generations to drop (core/memory/contexts/idle-compression-sweep.ts).
 */
export class MemoryCompressionSchedule extends Construct {
  readonly function: IFunction;
  readonly logGroup: LogGroup;
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: MemoryCompressionScheduleProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'LogGroup', { retention: RetentionDays.ONE_MONTH });
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Meridian memory compression: its own logs, memory items of the table, the memory bucket',
    });
    this.logGroup.grantWrite(role);
    this.grantTable(role, props.table);
    grantMemoryBucket(role, role, props.memoryBucket);

    this.function = meridianFunction(this, 'Function', {
      entry: MEMORY_COMPRESSION_HANDLER_ENTRY,
      // gzip is the CPU part; 512 MB gives it a fair share of a vCPU.
      memorySize: 512,
      timeout: COMPRESSION_TIMEOUT,
      role,
      logGroup: this.logGroup,
      environment: {
        [TABLE_NAME_ENV]: props.table.tableName,
        [MEMORY_BUCKET_NAME_ENV]: props.memoryBucket.bucketName,
        [SERVICE_NAME_ENV]: 'meridian-memory-compression',
      },
      description: 'Meridian: compresses project memory contexts idle for 30 minutes',
    });

    this.schedule = invokeOnSchedule(this, this.function, {
      rate: MEMORY_COMPRESSION_RATE,
      description: `Meridian: compress memory contexts idle for 30 minutes, every ${MEMORY_COMPRESSION_RATE.toMinutes()} min`,
      purpose: 'the Meridian memory compression function',
    });
  }

  /**
   * What the bundled document store can send (the sweep queries the idle index, reads, writes and
   * deletes records, deletes replaced generations in batches; BatchGetItem is in the same adapter),
   * and the table's key as DynamoDB uses it on the caller's behalf. No Scan, no update actions.
   */
  private grantTable(role: Role, table: ITable): void {
    grantDocumentStore(role, table);
    acknowledgeTableGrantWildcards(role, table, {
      keyActionsWrittenBy:
        "is what DynamoDB needs of the table's customer-managed key to read and write items on the " +
        "function's behalf (CDK's set for a table's data grants); the statement names that one key.",
      indexWildcard:
        '<table ARN>/index/* is granted for Query only: the sweep queries gsi1 ' +
        '(the idle index), the only index, and the wildcard covers the indexes of this one table.',
    });
  }
}
