import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { METRIC, METRIC_SERVICE, METRICS_NAMESPACE } from '../../lambdas/core/metric-names.js';

export interface OperationsAlarmsProps {
  readonly mcpFunction: IFunction;
  /** book_slot's Compensate step: each invocation undid or finished a booking that failed midway. */
  readonly compensateFunction: IFunction;
  readonly syncFunction: IFunction;
  readonly compressionFunction: IFunction;
  /** How often the sync runs: a calendar is stale after three runs in a row failed it. */
  readonly syncRate: Duration;
  /**
   * The scheduled audit export and how often it runs: alarmed when a run fails (table or bucket
   * unreachable) or finds a chain that does not verify.
   *
   * @default - none (no audit export bucket): no such alarm
   */
  readonly auditExport?: { readonly function: IFunction; readonly rate: Duration };
  /**
   * Where alarms notify (context `alarmTopicArn`).
   *
   * @default - none: the alarms and the dashboard exist, and notify nobody
   */
  readonly alarmTopic?: ITopic;
}

const FIVE_MINUTES = Duration.minutes(5);

/** A Meridian metric (namespace Meridian) of one function's `service`, summed per period. */
function meridianSum(name: string, service: string, period: Duration = FIVE_MINUTES): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service },
    statistic: 'Sum',
    period,
  });
}

/**
 * What an operator is told about, and one dashboard to look at: the MCP function's fault rate and
 * throttles, per-principal limit refusals (a runaway agent), booking compensations (and a
 * compensation that itself failed), calendars whose sync keeps failing (stale shadows), and
 * scheduled functions that fail. The metrics come from Powertools' EMF lines
 * (lambdas/core/metric-names.ts) and from Lambda's own.
 */
export class OperationsAlarms extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsAlarmsProps) {
    super(scope, id);
    const calls = meridianSum(METRIC.calls, METRIC_SERVICE.mcp);
    const faults = meridianSum(METRIC.faults, METRIC_SERVICE.mcp);
    const refusals = meridianSum(METRIC.limitRefusals, METRIC_SERVICE.mcp);
    const faultRate = new MathExpression({
      expression: 'IF(calls > 0, 100 * faults / calls, 0)',
      usingMetrics: { calls, faults },
      period: FIVE_MINUTES,
      label: 'Faulted tool calls (%)',
    });
    const syncRuns = Math.max(1, Math.ceil(Duration.minutes(15).toMinutes() / props.syncRate.toMinutes()));
    const syncFailed = meridianSum(METRIC.syncFailedCalendars, METRIC_SERVICE.sync, props.syncRate).with({
      statistic: 'Maximum',
    });
    const add = (
      id: string,
      description: string,
      alarm: Omit<ConstructorParameters<typeof Alarm>[2], 'alarmDescription'>,
    ) => {
      const made = new Alarm(this, id, { alarmDescription: description, ...alarm });
      if (props.alarmTopic) made.addAlarmAction(new SnsAction(props.alarmTopic));
      this.alarms.push(made);
    };

    add(
      'FaultRate',
      'More than 1% of tool calls failed as server faults (-32603) in 3 of the last 5 periods.',
      {
        metric: faultRate,
        threshold: 1,
        evaluationPeriods: 5,
        datapointsToAlarm: 3,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add('McpThrottles', 'Lambda throttled the MCP function (account or reserved concurrency reached).', {
      metric: props.mcpFunction.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    add(
      'LimitRefusals',
      'Per-principal limits refused more than 100 tool calls in 5 minutes: an agent running away.',
      {
        metric: refusals,
        threshold: 100,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add(
      'BookingCompensations',
      'More than 20 bookings were compensated (undone or finished after a failed step) in 5 minutes.',
      {
        metric: props.compensateFunction.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 20,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add(
      'CompensationFailed',
      'A booking compensation failed: a hold or half-written event is left for the sweep.',
      {
        metric: props.compensateFunction.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add('SyncStale', 'Some calendar failed every sync for 15 minutes or more: its shadow copy is stale.', {
      metric: syncFailed,
      threshold: 1,
      evaluationPeriods: syncRuns,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    for (const [name, fn] of [
      ['SyncScheduleFailed', props.syncFunction],
      ['CompressionScheduleFailed', props.compressionFunction],
    ] as const) {
      add(
        name,
        `The scheduled ${name.startsWith('Sync') ? 'calendar sync' : 'memory compression'} run failed twice in a row.`,
        {
          metric: fn.metricErrors({
            period: name.startsWith('Sync') ? props.syncRate : FIVE_MINUTES,
            statistic: 'Sum',
          }),
          threshold: 1,
          evaluationPeriods: 2,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        },
      );
    }

    if (props.auditExport) {
      const { rate } = props.auditExport;
      add(
        'AuditExportFailed',
        'An audit export run failed (table or bucket unreachable) or found a chain that does not verify: the log may have been changed, and the locked copy is not current.',
        {
          metric: new MathExpression({
            expression: 'FILL(errors, 0) + FILL(unverified, 0)',
            usingMetrics: {
              errors: props.auditExport.function.metricErrors({ period: rate, statistic: 'Sum' }),
              unverified: meridianSum(METRIC.auditExportFailures, METRIC_SERVICE.auditExport, rate),
            },
            period: rate,
            label: 'Failed audit export runs and unverified chains',
          }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        },
      );
    }

    this.dashboard = new Dashboard(this, 'Dashboard', {
      widgets: [
        [new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 })],
        [
          new GraphWidget({ title: 'Tool calls and faults', left: [calls], right: [faultRate], width: 8 }),
          new GraphWidget({
            title: 'MCP function duration (p50, p99)',
            left: [
              props.mcpFunction.metricDuration({ statistic: 'p50' }),
              props.mcpFunction.metricDuration({ statistic: 'p99' }),
            ],
            width: 8,
          }),
          new GraphWidget({
            title: 'Limit refusals and throttles',
            left: [refusals, props.mcpFunction.metricThrottles({ statistic: 'Sum' })],
            width: 8,
          }),
        ],
        [
          new GraphWidget({
            title: 'Booking compensations',
            left: [props.compensateFunction.metricInvocations({ statistic: 'Sum' })],
            width: 12,
          }),
          new GraphWidget({
            title: 'Calendar sync',
            left: [meridianSum(METRIC.syncedCalendars, METRIC_SERVICE.sync, props.syncRate), syncFailed],
            width: 12,
          }),
        ],
      ],
    });
  }
}
