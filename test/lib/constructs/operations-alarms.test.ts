import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { meridianStacks, testApp } from '../synth-helpers.js';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:meridian-on-call';

function synthesize(alarmTopicArn?: string): Template {
  return Template.fromStack(meridianStacks(testApp(), alarmTopicArn ? { alarmTopicArn } : {}).service);
}

type Alarms = Record<string, { Properties: Record<string, unknown> }>;

describe('the operations alarms and dashboard', () => {
  const template = synthesize(TOPIC);
  const alarms = template.findResources('AWS::CloudWatch::Alarm') as Alarms;
  const byDescription = (text: string) =>
    Object.values(alarms).find((alarm) => String(alarm.Properties.AlarmDescription).includes(text))
      ?.Properties;

  it('alarms on faults, throttles, limit refusals, compensations, stale sync, failed schedules and failed audit exports, each to the topic', () => {
    expect(Object.keys(alarms)).toHaveLength(9);
    for (const alarm of Object.values(alarms)) expect(alarm.Properties.AlarmActions).toEqual([TOPIC]);
  });

  it('computes the fault rate from the MCP function’s service-wide Calls and Faults (EMF, namespace Meridian)', () => {
    const metrics = byDescription('server faults')?.Metrics as {
      Id: string;
      Expression?: string;
      MetricStat?: unknown;
    }[];

    expect(metrics.find((m) => m.Expression)?.Expression).toBe('IF(calls > 0, 100 * faults / calls, 0)');
    expect(metrics.filter((m) => m.MetricStat).map((m) => m.MetricStat)).toEqual([
      expect.objectContaining({
        Metric: {
          Namespace: 'Meridian',
          MetricName: 'Calls',
          Dimensions: [{ Name: 'service', Value: 'meridian' }],
        },
      }),
      expect.objectContaining({
        Metric: {
          Namespace: 'Meridian',
          MetricName: 'Faults',
          Dimensions: [{ Name: 'service', Value: 'meridian' }],
        },
      }),
    ]);
  });

  it('reads limit refusals and sync failures under the services that publish them', () => {
    expect(byDescription('running away')).toMatchObject({
      Namespace: 'Meridian',
      MetricName: 'LimitRefusals',
      Dimensions: [{ Name: 'service', Value: 'meridian' }],
    });
    expect(byDescription('stale')).toMatchObject({
      Namespace: 'Meridian',
      MetricName: 'SyncFailedCalendars',
      Dimensions: [{ Name: 'service', Value: 'meridian-sync' }],
      Statistic: 'Maximum',
      EvaluationPeriods: 3,
    });
  });

  it('watches the Compensate step and the scheduled functions through Lambda’s own metrics', () => {
    expect(byDescription('compensation failed')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
    });
    expect(byDescription('were compensated')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Invocations',
    });
    expect(byDescription('calendar sync run failed')).toMatchObject({ MetricName: 'Errors' });
    expect(byDescription('memory compression run failed')).toMatchObject({ MetricName: 'Errors' });
    expect(byDescription('throttled')).toMatchObject({ MetricName: 'Throttles' });
  });

  it('alarms on a failed audit export run or a chain it found unverified, per export period', () => {
    const alarm = byDescription('audit export run failed') as {
      Metrics: {
        Id: string;
        Expression?: string;
        MetricStat?: { Metric: Record<string, unknown>; Period: number };
      }[];
      Threshold: number;
    };
    const exportFunction = Object.keys(template.findResources('AWS::Lambda::Function')).find((id) =>
      id.startsWith('AuditExportFunction'),
    );

    expect(alarm.Metrics.find((m) => m.Expression)?.Expression).toBe('FILL(errors, 0) + FILL(unverified, 0)');
    expect(alarm.Threshold).toBe(1);
    const stats = alarm.Metrics.filter((m) => m.MetricStat).map((m) => m.MetricStat);
    expect(stats).toEqual([
      expect.objectContaining({
        Metric: {
          Namespace: 'AWS/Lambda',
          MetricName: 'Errors',
          Dimensions: [{ Name: 'FunctionName', Value: { Ref: exportFunction } }],
        },
        Period: 3600,
      }),
      expect.objectContaining({
        Metric: {
          Namespace: 'Meridian',
          MetricName: 'AuditExportFailures',
          Dimensions: [{ Name: 'service', Value: 'meridian-audit-export' }],
        },
        Period: 3600,
      }),
    ]);
  });

  it('has no audit export alarm in a stack without the audit export', () => {
    const without = Template.fromStack(
      meridianStacks(testApp(), { auditExportBucket: undefined }).service,
    ).findResources('AWS::CloudWatch::Alarm') as Alarms;

    expect(Object.values(without).map((a) => String(a.Properties.AlarmDescription))).not.toContainEqual(
      expect.stringContaining('audit export'),
    );
    expect(Object.keys(without)).toHaveLength(8);
  });

  it('draws one dashboard with the alarms and the same metrics', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = JSON.stringify(template.findResources('AWS::CloudWatch::Dashboard'));
    for (const metric of ['Calls', 'LimitRefusals', 'SyncFailedCalendars', 'Throttles'])
      expect(body).toContain(metric);
  });

  it('creates the alarms without actions when no topic is given', () => {
    const quiet = synthesize().findResources('AWS::CloudWatch::Alarm') as Alarms;

    expect(Object.keys(quiet)).toHaveLength(9);
    expect(Object.values(quiet).map((alarm) => alarm.Properties.AlarmActions ?? [])).toEqual(
      Object.values(quiet).map(() => []),
    );
  });
});
