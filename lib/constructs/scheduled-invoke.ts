import { type Duration, Stack } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Construct } from 'constructs';
import { acknowledgeWildcardResource } from './nag-acknowledgements.js';

/**
 * `rate` in whole minutes, or an error naming `prop` (EventBridge Scheduler rate expressions
 * take no seconds).
 *
 * @example
 * const minutes = wholeMinutes(props.syncRate ?? Duration.minutes(5), 'syncRate'); // 5
 */
export function wholeMinutes(rate: Duration, prop: string): number {
  const minutes = rate.toMinutes({ integral: false });
  if (!Number.isInteger(minutes) || minutes < 1) {
    throw new Error(`${prop} must be a whole number of minutes, at least 1 (got ${rate.toHumanString()}).`);
  }
  return minutes;
}

/**
 * An EventBridge Scheduler schedule (`<scope>/Schedule`) that invokes `fn` every `rate` with an
 * empty event and no retries (the next run is one period away, and a retry could overlap it),
 * through a role of its own (`<scope>/SchedulerRole`) rather than the one the target would create
 * at stack level, so that it sits in the caller's construct and its one finding is acknowledged
 * there. Only schedules of this account may assume it (confused deputy).
 *
 * @example
 * this.schedule = invokeOnSchedule(this, fn, { rate, description: 'Meridian: …', purpose: 'the sync function' });
 */
export function invokeOnSchedule(
  scope: Construct,
  fn: IFunction,
  props: { rate: Duration; description: string; purpose: string },
): Schedule {
  const role = new Role(scope, 'SchedulerRole', {
    assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
    }),
    description: `EventBridge Scheduler: invoke ${props.purpose}`,
  });
  // The target grants it with the function's grantInvoke (see the acknowledgement).
  acknowledgeWildcardResource(
    role,
    `${fn.functionArn}:*`,
    "<function ARN>:* is written by the Scheduler target's grantInvoke, which covers the " +
      `versions and aliases of ${props.purpose} next to the function itself; the schedule invokes ` +
      'the unqualified ARN, and the wildcard reaches no other function.',
  );
  return new Schedule(scope, 'Schedule', {
    schedule: ScheduleExpression.rate(props.rate),
    target: new LambdaInvoke(fn, { role, input: ScheduleTargetInput.fromObject({}), retryAttempts: 0 }),
    description: props.description,
  });
}
