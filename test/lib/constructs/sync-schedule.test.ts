import { Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { type CfnKey, Key } from 'aws-cdk-lib/aws-kms';
import { describe, expect, it } from 'vitest';
import { MemoryBucket } from '../../../lib/constructs/memory-bucket.js';
import { MeridianTable } from '../../../lib/constructs/meridian-table.js';
import { ServiceStack, type ServiceStackProps } from '../../../lib/stacks/service-stack.js';
import { acknowledgements, meridianStacks, synthWithNag, testApp, unacknowledged } from '../synth-helpers.js';
import { actionsOf, statementsOf, synthesizeScheduled } from './scheduled-function-template.js';

/** The service template and the logical ids of the sync construct's resources. */
function synthesize(props: Partial<ServiceStackProps> = {}) {
  return synthesizeScheduled('SyncSchedule', props);
}

describe('SyncSchedule', () => {
  describe('schedule', () => {
    it('invokes the sync function every 5 minutes by default, with an empty event and no retries', () => {
      const { template, functionId, schedulerRoleId } = synthesize();

      const schedules = Object.entries(template.findResources('AWS::Scheduler::Schedule'))
        .filter(([id]) => id.startsWith('SyncSchedule'))
        .map(([, schedule]) => schedule);
      expect(schedules).toHaveLength(1);
      expect(schedules[0]!.Properties).toMatchObject({
        ScheduleExpression: 'rate(5 minutes)',
        State: 'ENABLED',
        FlexibleTimeWindow: { Mode: 'OFF' },
        Target: {
          Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
          RoleArn: { 'Fn::GetAtt': [schedulerRoleId, 'Arn'] },
          Input: '{}',
          RetryPolicy: { MaximumRetryAttempts: 0 },
        },
      });
    });

    it.each([
      [Duration.minutes(15), 'rate(15 minutes)'],
      [Duration.minutes(1), 'rate(1 minute)'],
      [Duration.hours(1), 'rate(1 hour)'],
    ])('runs at the configured rate (%s)', (syncRate, expression) => {
      const { template } = synthesize({ syncRate });

      template.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: expression });
    });

    it.each([Duration.seconds(30), Duration.seconds(90)])(
      'refuses a rate that is not whole minutes (%s)',
      (syncRate) => {
        expect(() => synthesize({ syncRate })).toThrow(
          /syncRate must be a whole number of minutes, at least 1/,
        );
      },
    );

    it('lets only EventBridge Scheduler of this account assume its role, to invoke the sync function only', () => {
      const { template, functionId, schedulerRoleId, resource } = synthesize();
      const functionArn = { 'Fn::GetAtt': [functionId, 'Arn'] };

      expect(resource(schedulerRoleId).Properties.AssumeRolePolicyDocument).toEqual({
        Version: '2012-10-17',
        Statement: [
          {
            Action: 'sts:AssumeRole',
            Effect: 'Allow',
            Principal: { Service: 'scheduler.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          },
        ],
      });
      expect(statementsOf(template, 'SyncScheduleSchedulerRole')).toEqual([
        {
          Action: 'lambda:InvokeFunction',
          Effect: 'Allow',
          Resource: [functionArn, { 'Fn::Join': ['', [functionArn, ':*']] }],
        },
      ]);
    });
  });

  describe('function', () => {
    it('runs the bundled sync handler on nodejs24.x, arm64, for up to 5 minutes, logging to its own group', () => {
      const { functionId, logGroupId, resource } = synthesize({ defaultTimezone: 'Europe/Paris' });

      expect(resource(functionId).Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: 300,
        LoggingConfig: { LogGroup: { Ref: logGroupId } },
        Environment: {
          Variables: {
            MERIDIAN_TABLE_NAME: expect.anything(),
            MERIDIAN_DATA_KEY_ARN: expect.anything(),
            MERIDIAN_TIMEZONE: 'Europe/Paris',
            POWERTOOLS_SERVICE_NAME: 'meridian-sync',
          },
        },
      });
      expect(resource(logGroupId).Properties.RetentionInDays).toBe(30);
    });

    it('may write its logs, use the table and its index, and decrypt with the data key, nothing more', () => {
      const { template, logGroupId } = synthesize();

      const statements = statementsOf(template, 'SyncScheduleRole');
      const services = statements.map((s) => [...new Set(actionsOf(s).map((a) => a.split(':')[0]))].join());
      // DynamoDB twice: the item actions on the table, Query on the table and its index.
      expect(services.sort()).toEqual(['dynamodb', 'dynamodb', 'kms', 'logs']);
      expect(statements.find((s) => actionsOf(s)[0]!.startsWith('logs:'))?.Resource).toEqual({
        'Fn::GetAtt': [logGroupId, 'Arn'],
      });
      const wildcards = statements
        .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]))
        .filter((r) => JSON.stringify(r).includes('*'));
      expect(wildcards).toHaveLength(1);
      expect(JSON.stringify(wildcards[0])).toContain('/index/*');
    });

    it('gets only kms:Decrypt on a data key the table does not use', () => {
      const app = testApp();
      const shared = new Stack(app, 'Shared');
      const tableKey = new Key(shared, 'TableKey');
      const dataKey = new Key(shared, 'DataKey');
      const table = new MeridianTable(shared, 'Table', { encryptionKey: tableKey }).table;
      const memoryBucket = new MemoryBucket(shared, 'MemoryBucket', { encryptionKey: tableKey }).bucket;
      const template = Template.fromStack(new ServiceStack(app, 'Service', { table, dataKey, memoryBucket }));
      const dataKeyId = shared.getLogicalId(dataKey.node.defaultChild as CfnKey);

      const onDataKey = statementsOf(template, 'SyncScheduleRole').filter((s) =>
        JSON.stringify(s.Resource).includes(dataKeyId),
      );
      expect(onDataKey.map(actionsOf)).toEqual([['kms:Decrypt']]);
    });
  });

  describe('cdk-nag', () => {
    it('leaves nothing unacknowledged and acknowledges exactly the reviewed findings, with reasons', () => {
      let functionId = '';
      const report = synthWithNag((app) => {
        const { service } = meridianStacks(app);
        functionId = service.getLogicalId(service.syncSchedule.function.node.defaultChild as never);
      });

      expect(unacknowledged(report)).toEqual([]);
      const acknowledged = acknowledgements(report, 'Service/SyncSchedule/');
      expect(
        [...new Set(acknowledged.map((a) => a.acknowledgedId.replace(/\{.*\}/, '<table ARN>')))].sort(),
      ).toEqual(
        [
          'AwsSolutions::AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
          'AwsSolutions::AwsSolutions-IAM5[Action::kms:ReEncrypt*]',
          'AwsSolutions::AwsSolutions-IAM5[Resource::<table ARN>/index/*]',
          `AwsSolutions::AwsSolutions-IAM5[Resource::<${functionId}.Arn>:*]`,
        ].sort(),
      );
      for (const a of acknowledged) expect(a.reason.length).toBeGreaterThan(80);
    });
  });
});
