import { fileURLToPath } from 'node:url';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { BOOKING_DEFINITION_PATH, BOOKING_TASKS } from '../../lambdas/booking/booking-definition.js';
import type { BookingStepName } from '../../lambdas/core/ports/index.js';
import { requireZone } from '../../lambdas/core/time/zones.js';
import { LOCK_TTL_SECS_ENV } from '../../lambdas/runtime/environment-names.js';
import { grantTableAndDataKey } from './data-access.js';
import { objectGraphEnvironment } from './function-environment.js';
import type { GoogleOAuthClient } from './google-client.js';
import { meridianFunction } from './meridian-function.js';
import type { OutlookApp } from './outlook-app.js';

/** The handlers the step functions deploy, one export per task state. */
export const BOOKING_STEPS_ENTRY = fileURLToPath(
  new URL('../../lambdas/handlers/booking-steps.ts', import.meta.url),
);

/** A step's Lambda timeout; booking.asl.json gives each Task the same `TimeoutSeconds`. */
const STEP_TIMEOUT = Duration.seconds(20);

export interface BookingWorkflowProps {
  /** The table holding locks, idempotency records and native calendars. */
  readonly table: ITable;

  /** The data key: the steps decrypt provider credentials with it (the Write step calls providers). */
  readonly dataKey: IKey;

  /**
   * IANA zone the steps show times in when a calendar has none (`MERIDIAN_TIMEZONE`).
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
   * How long a booking holds its slot (`LOCK_TTL_SECS`), 5–300 s.
   *
   * @default 30
   */
  readonly lockTtlSeconds?: number;
}

/**
 * book_slot on AWS: an Express state machine defined by lambdas/booking/booking.asl.json — the
 * very file the embedded runtime runs — loaded with `DefinitionBody.fromFile`, its `${…}`
 * placeholders substituted with the ARNs of one Lambda per task state. Logs every event to its own
 * log group (without execution data: payloads carry event titles and attendees) and traces with
 * X-Ray. The MCP function starts it with StartSyncExecution.
 */
export class BookingWorkflow extends Construct {
  readonly stateMachine: StateMachine;
  readonly functions: Readonly<Record<BookingStepName, LambdaFunction>>;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: BookingWorkflowProps) {
    super(scope, id);
    if (props.defaultTimezone !== undefined) requireZone(props.defaultTimezone, 'defaultTimezone');
    const ttl = props.lockTtlSeconds ?? 30;
    if (!Number.isInteger(ttl) || ttl < 5 || ttl > 300) {
      throw new Error(`lockTtlSeconds must be a whole number from 5 to 300 (got ${ttl}).`);
    }

    // One role for the five steps: they run the same code with the same needs (the table, the key,
    // their own log groups), so separate roles would only repeat the same statements five times.
    const role = new Role(this, 'StepRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Meridian booking steps: their own logs, the table and the data key',
    });
    grantTableAndDataKey(role, props.table, props.dataKey);

    const functions = {} as Record<BookingStepName, LambdaFunction>;
    for (const task of BOOKING_TASKS) {
      const logGroup = new LogGroup(this, `${task.state}Logs`, { retention: RetentionDays.ONE_MONTH });
      logGroup.grantWrite(role);
      const fn = meridianFunction(this, `${task.state}Function`, {
        entry: BOOKING_STEPS_ENTRY,
        exportName: task.handler,
        memorySize: 512,
        timeout: STEP_TIMEOUT,
        role,
        logGroup,
        environment: {
          ...objectGraphEnvironment({
            table: props.table,
            dataKey: props.dataKey,
            defaultTimezone: props.defaultTimezone,
            googleOAuthClient: props.googleOAuthClient,
            outlookApp: props.outlookApp,
            serviceName: 'meridian-booking',
          }),
          [LOCK_TTL_SECS_ENV]: String(ttl),
        },
        description: `Meridian book_slot: the ${task.state} step`,
      });
      functions[task.step] = fn;
    }
    this.functions = functions;

    // Under /aws/vendedlogs/: Step Functions delivers logs through CloudWatch's log delivery, whose
    // resource policy stays small for groups under this prefix.
    this.logGroup = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `/aws/vendedlogs/states/${Stack.of(this).stackName}-booking`,
      retention: RetentionDays.ONE_MONTH,
    });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineType: StateMachineType.EXPRESS,
      definitionBody: DefinitionBody.fromFile(BOOKING_DEFINITION_PATH),
      definitionSubstitutions: Object.fromEntries(
        BOOKING_TASKS.map((task) => [task.placeholder, functions[task.step].functionArn]),
      ),
      // ALL: an Express execution keeps no history, so its log is the only record of each state
      // entered and left. Without execution data: payloads carry event titles, descriptions and
      // attendee addresses, which do not belong in logs.
      logs: { destination: this.logGroup, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    for (const fn of Object.values(functions)) fn.grantInvokeLatestVersion(this.stateMachine);

    Validations.of(this.stateMachine.role).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason:
        'Written by the StateMachine construct for its logging and tracing, and neither can be scoped: ' +
        'CloudWatch log delivery (logs:CreateLogDelivery, PutResourcePolicy, DescribeLogGroups, …) and ' +
        'X-Ray (xray:PutTraceSegments, PutTelemetryRecords, GetSampling*) accept only "*" as resource. ' +
        'Invoking the step functions is granted per function ARN.',
    });
  }
}
