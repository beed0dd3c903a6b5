import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Schedule } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { METRIC_SERVICE } from '../../lambdas/core/metric-names.js';
import { requireZone } from '../../lambdas/core/time/zones.js';
import { grantTableAndDataKey } from './data-access.js';
import { objectGraphEnvironment } from './function-environment.js';
import type { GoogleOAuthClient } from './google-client.js';
import { meridianFunction } from './meridian-function.js';
import type { OutlookApp } from './outlook-app.js';
import { invokeOnSchedule, wholeMinutes } from './scheduled-invoke.js';

/** The handler the sync function deploys. */
export const SYNC_HANDLER_ENTRY = fileURLToPath(
  new URL('../../lambdas/handlers/sync-job.ts', import.meta.url),
);

/** How often calendars are synced when `syncRate` is not given; `serve`'s timer has the same default. */
export const DEFAULT_SYNC_RATE = Duration.minutes(5);

/**
 * How long one run may take. A run stops starting calendars a minute before (the handler's
 * STOP_MARGIN_MS), and a calendar's sync lease lasts as long, so a run killed at the timeout
 * blocks its calendars for one schedule period at most.
 */
const SYNC_TIMEOUT = Duration.minutes(5);

export interface SyncScheduleProps {
  /** The table holding calendars, connections and the shadow (`MERIDIAN_TABLE_NAME`). */
  readonly table: ITable;

  /** The key that wraps connection secrets (`MERIDIAN_DATA_KEY_ARN`); the sync only decrypts with it. */
  readonly dataKey: IKey;

  /**
   * IANA zone for all-day events and floating series of calendars that name none (`MERIDIAN_TIMEZONE`).
   *
   * @default - not set: UTC
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
   * How often the sync runs, in whole minutes (an EventBridge Scheduler rate expression).
   *
   * @default Duration.minutes(5)
   */
  readonly syncRate?: Duration;
}

/**
 * The scheduled sync of the shadow calendar: a Lambda function (Node 24 on arm64, its own log
 * group, a role that may use the table and decrypt connection secrets, nothing more) and an
 * EventBridge Scheduler schedule that invokes it every `syncRate`.
 */
export class SyncSchedule extends Construct {
  readonly function: IFunction;
  readonly logGroup: LogGroup;
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: SyncScheduleProps) {
    super(scope, id);
    if (props.defaultTimezone !== undefined) requireZone(props.defaultTimezone, 'defaultTimezone');
    const rate = props.syncRate ?? DEFAULT_SYNC_RATE;
    const minutes = wholeMinutes(rate, 'syncRate');

    this.logGroup = new LogGroup(this, 'LogGroup', { retention: RetentionDays.ONE_MONTH });
    // As for the MCP function: an explicit role that may write to this log group only.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Meridian sync function: its own logs, the table, decrypting connection secrets',
    });
    this.logGroup.grantWrite(role);
    this.grantData(role, props);

    const fn = meridianFunction(this, 'Function', {
      entry: SYNC_HANDLER_ENTRY,
      // Waiting on providers is most of a run; parsing iCalendar is the CPU part.
      memorySize: 512,
      timeout: SYNC_TIMEOUT,
      role,
      logGroup: this.logGroup,
      environment: objectGraphEnvironment({
        table: props.table,
        dataKey: props.dataKey,
        defaultTimezone: props.defaultTimezone,
        googleOAuthClient: props.googleOAuthClient,
        outlookApp: props.outlookApp,
        serviceName: METRIC_SERVICE.sync,
      }),
      description: 'Meridian: syncs connected calendars into the shadow calendar',
    });
    this.function = fn;

    this.schedule = invokeOnSchedule(this, fn, {
      rate,
      description: `Meridian: sync connected calendars into the shadow calendar every ${minutes} min`,
      purpose: 'the Meridian sync function',
    });
  }

  /**
   * The table and the key through grants only. `grantDocumentStore` on a table encrypted with a
   * customer-managed key also grants that key's use by DynamoDB (CDK's set); the
   * Encryption SDK's KMS keyring only decrypts here (the sync never stores a secret), so a data
   * key other than the table's gets kms:Decrypt and nothing else.
   */
  private grantData(role: Role, props: SyncScheduleProps): void {
    grantTableAndDataKey(role, props.table, props.dataKey, ['kms:Decrypt']);
  }
}
