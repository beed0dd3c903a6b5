import { Duration } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DataStack } from '../../../lib/stacks/data-stack.js';
import { acknowledgements, meridianStacks, synthWithNag, testApp, unacknowledged } from '../synth-helpers.js';
import { actionsOf, statementsOf, synthesizeScheduled } from './scheduled-function-template.js';

/** The data stack's audit bucket: the one bucket with Object Lock. */
function auditBucket(template: Template): { id: string; resource: Record<string, unknown> } {
  const buckets = Object.entries(template.findResources('AWS::S3::Bucket')).filter(
    ([, bucket]) => bucket.Properties.ObjectLockEnabled === true,
  );
  expect(buckets).toHaveLength(1);
  const [id, resource] = buckets[0]!;
  return { id, resource };
}

describe('AuditExportBucket (data stack)', () => {
  it('locks every export in governance mode for a year by default, versioned, SSE-KMS, retained', () => {
    const template = Template.fromStack(new DataStack(testApp(), 'Data'));

    const { resource } = auditBucket(template);

    expect(resource).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: {
        ObjectLockEnabled: true,
        ObjectLockConfiguration: {
          ObjectLockEnabled: 'Enabled',
          Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 365 } },
        },
        VersioningConfiguration: { Status: 'Enabled' },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [
            { ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' }, BucketKeyEnabled: true },
          ],
        },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
      },
    });
  });

  it('takes the retention and its mode from props', () => {
    const stack = new DataStack(testApp(), 'Data', {
      auditRetention: Duration.days(2555),
      auditRetentionMode: 'compliance',
    });

    const { resource } = auditBucket(Template.fromStack(stack));

    expect(resource).toMatchObject({
      Properties: {
        ObjectLockConfiguration: { Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 2555 } } },
      },
    });
  });
});

let defaultSynth: ReturnType<typeof synthesizeScheduled> | undefined;

/** The service template with the default props, synthesized once for the tests that read it. */
function synthesizeDefault() {
  defaultSynth ??= synthesizeScheduled('AuditExport');
  return defaultSynth;
}

describe('AuditExportSchedule (service stack)', () => {
  it('invokes the export function every hour with an empty event and no retries', () => {
    const { functionId, scheduleIds, schedulerRoleId, resource } = synthesizeDefault();

    expect(scheduleIds).toHaveLength(1);
    expect(resource(scheduleIds[0]!).Properties).toMatchObject({
      ScheduleExpression: 'rate(1 hour)',
      State: 'ENABLED',
      Target: {
        Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
        RoleArn: { 'Fn::GetAtt': [schedulerRoleId, 'Arn'] },
        Input: '{}',
        RetryPolicy: { MaximumRetryAttempts: 0 },
      },
    });
  });

  it('takes the rate from a prop', () => {
    const { scheduleIds, resource } = synthesizeScheduled('AuditExport', {
      auditExportRate: Duration.hours(6),
    });

    expect(resource(scheduleIds[0]!).Properties.ScheduleExpression).toBe('rate(6 hours)');
  });

  it('runs the bundled export handler with the table and the audit bucket', () => {
    const { functionId, resource } = synthesizeDefault();

    const variables = (resource(functionId).Properties.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(Object.keys(variables).sort()).toEqual([
      'MERIDIAN_AUDIT_EXPORT_BUCKET',
      'MERIDIAN_TABLE_NAME',
      'POWERTOOLS_SERVICE_NAME',
    ]);
    expect(JSON.stringify(variables.MERIDIAN_AUDIT_EXPORT_BUCKET)).toContain('AuditExports');
  });

  it('may read and write exports under audit/ only: no delete, no retention change, no governance bypass', () => {
    const { template } = synthesizeDefault();

    const statements = statementsOf(template, 'AuditExportRole');
    const s3 = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('s3:')));
    expect(s3.map((s) => actionsOf(s).sort())).toEqual([['s3:GetObject', 's3:PutObject']]);
    expect(JSON.stringify(s3[0]!.Resource)).toContain('/audit/*');
    const all = statements.flatMap(actionsOf);
    for (const forbidden of [/^s3:Delete/, /Retention/, /LegalHold/, /^s3:\*$/, /BypassGovernance/])
      expect(all.filter((action) => forbidden.test(action))).toEqual([]);
  });

  it('is not built without an audit bucket', () => {
    const { service } = meridianStacks(testApp(), { auditExportBucket: undefined });

    expect(service.auditExport).toBeUndefined();
  });

  it('leaves nothing unacknowledged in cdk-nag, each acknowledgement with a reason', () => {
    const report = synthWithNag((app) => {
      meridianStacks(app);
    });

    expect(unacknowledged(report)).toEqual([]);
    const acknowledged = [
      ...acknowledgements(report, 'Service/AuditExport/'),
      ...acknowledgements(report, 'Data/AuditExports/'),
    ];
    expect(acknowledged.map((a) => a.acknowledgedId)).toEqual(
      expect.arrayContaining([
        'AwsSolutions::AwsSolutions-S1',
        expect.stringMatching(/AwsSolutions-IAM5\[Resource::.*\/audit\/\*\]/),
      ]),
    );
    for (const a of acknowledged) expect(a.reason.length).toBeGreaterThan(80);
  });
});
