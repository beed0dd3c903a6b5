import { describe, expect, it } from 'vitest';
import { acknowledgements, meridianStacks, synthWithNag, unacknowledged } from '../synth-helpers.js';
import { actionsOf, statementsOf, synthesizeScheduled } from './scheduled-function-template.js';

/** The service template and the logical ids of the memory compression construct's resources. */
function synthesize() {
  const synthesized = synthesizeScheduled('MemoryCompression');
  expect(synthesized.scheduleIds).toHaveLength(1);
  return { ...synthesized, scheduleId: synthesized.scheduleIds[0]! };
}

describe('MemoryCompressionSchedule', () => {
  it('invokes the compression function every 5 minutes, with an empty event and no retries', () => {
    const { functionId, scheduleId, schedulerRoleId, resource } = synthesize();

    expect(resource(scheduleId).Properties).toMatchObject({
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Target: {
        Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
        RoleArn: { 'Fn::GetAtt': [schedulerRoleId, 'Arn'] },
        Input: '{}',
        RetryPolicy: { MaximumRetryAttempts: 0 },
      },
    });
  });

  it('lets only EventBridge Scheduler of this account assume its role, to invoke that function only', () => {
    const { template, functionId, schedulerRoleId, resource } = synthesize();
    const functionArn = { 'Fn::GetAtt': [functionId, 'Arn'] };

    expect(resource(schedulerRoleId).Properties.AssumeRolePolicyDocument).toMatchObject({
      Statement: [
        {
          Principal: { Service: 'scheduler.amazonaws.com' },
          Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
        },
      ],
    });
    expect(statementsOf(template, 'MemoryCompressionSchedulerRole')).toEqual([
      {
        Action: 'lambda:InvokeFunction',
        Effect: 'Allow',
        Resource: [functionArn, { 'Fn::Join': ['', [functionArn, ':*']] }],
      },
    ]);
  });

  it('runs the bundled compression handler with the table and the memory bucket, and no data key', () => {
    const { functionId, logGroupId, resource } = synthesize();

    const properties = resource(functionId).Properties;
    expect(properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Timeout: 300,
      LoggingConfig: { LogGroup: { Ref: logGroupId } },
    });
    const variables = (properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(variables).sort()).toEqual([
      'MERIDIAN_MEMORY_BUCKET_NAME',
      'MERIDIAN_TABLE_NAME',
      'POWERTOOLS_SERVICE_NAME',
    ]);
    expect(variables.POWERTOOLS_SERVICE_NAME).toBe('meridian-memory-compression');
  });

  it('may make the document store’s item calls (never scan or update), use the memory bucket and write its logs', () => {
    const { template, logGroupId } = synthesize();

    const statements = statementsOf(template, 'MemoryCompressionRole');
    const actions = statements.flatMap(actionsOf);
    expect(actions.filter((a) => a.startsWith('dynamodb:')).sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
    ]);
    expect([...new Set(actions.map((a) => a.split(':')[0]))].sort()).toEqual([
      'dynamodb',
      'kms',
      'logs',
      's3',
    ]);
    expect(statements.find((s) => actionsOf(s)[0]!.startsWith('logs:'))?.Resource).toEqual({
      'Fn::GetAtt': [logGroupId, 'Arn'],
    });
    // Only the table's key (DynamoDB and the bucket's SSE-KMS use it): no Encryption SDK data key use of its own.
    const kmsStatements = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')));
    for (const s of kmsStatements) expect(JSON.stringify(s.Resource)).toContain('DataKey');
  });

  it('leaves nothing unacknowledged in cdk-nag and acknowledges exactly the reviewed findings, with reasons', () => {
    let functionId = '';
    const report = synthWithNag((app) => {
      const { service } = meridianStacks(app);
      functionId = service.getLogicalId(service.memoryCompression.function.node.defaultChild as never);
    });

    expect(unacknowledged(report)).toEqual([]);
    const acknowledged = acknowledgements(report, 'Service/MemoryCompression/');
    expect([...new Set(acknowledged.map((a) => a.acknowledgedId.replace(/\{.*\}/, '<ARN>')))].sort()).toEqual(
      [
        'AwsSolutions::AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
        'AwsSolutions::AwsSolutions-IAM5[Action::kms:ReEncrypt*]',
        'AwsSolutions::AwsSolutions-IAM5[Resource::<ARN>/*]',
        'AwsSolutions::AwsSolutions-IAM5[Resource::<ARN>/index/*]',
        `AwsSolutions::AwsSolutions-IAM5[Resource::<${functionId}.Arn>:*]`,
      ].sort(),
    );
    for (const a of acknowledged) expect(a.reason.length).toBeGreaterThan(80);
  });
});
