import { type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import {
  acknowledgements,
  type MeridianStacks,
  meridianStacks,
  synthWithNag,
  testApp,
  unacknowledged,
} from '../synth-helpers.js';

/** The name the data stack gives the output that publishes the ARN of its resource of `type`. */
function arnOutputName(type = 'AWS::DynamoDB::Table', idPrefix = ''): string {
  const data = Template.fromStack(meridianStacks(testApp()).data).toJSON();
  const resourceId = Object.keys(data.Resources).find(
    (id) => data.Resources[id].Type === type && id.startsWith(idPrefix),
  );
  const names = Object.entries(data.Outputs as Record<string, { Value: unknown }>)
    .filter(
      ([, output]) => JSON.stringify(output.Value) === JSON.stringify({ 'Fn::GetAtt': [resourceId, 'Arn'] }),
    )
    .map(([name]) => name);
  expect(names).toHaveLength(1);
  return names[0]!;
}

/** The logical id of the sync function in the service template. */
function syncFunctionId({ service }: MeridianStacks): string {
  return service.getLogicalId(service.syncSchedule.function.node.defaultChild as CfnElement);
}

function memoryCompressionFunctionId({ service }: MeridianStacks): string {
  return service.getLogicalId(service.memoryCompression.function.node.defaultChild as CfnElement);
}

/** The logical id of the audit export function in the service template. */
function auditExportFunctionId({ service }: MeridianStacks): string {
  return service.getLogicalId(service.auditExport!.function.node.defaultChild as CfnElement);
}

describe('ServiceStack', () => {
  describe('cdk-nag AwsSolutions checks', () => {
    it('leaves no unacknowledged error or warning', () => {
      const report = synthWithNag((app) => meridianStacks(app));

      expect(unacknowledged(report)).toEqual([]);
    });

    it('acknowledges exactly the reviewed findings, each with a written reason', () => {
      let stacks: MeridianStacks | undefined;
      const report = synthWithNag((app) => {
        stacks = meridianStacks(app);
      });

      const acknowledged = acknowledgements(report, 'Service/');
      // cdk-nag names the index wildcard by the rendered cross-stack read of the table's ARN.
      const indexWildcard =
        'AwsSolutions::AwsSolutions-IAM5[Resource::{"Fn::GetStackOutput":{"StackName":"Data",' +
        `"Region":{"Ref":"AWS::Region"},"OutputName":"${arnOutputName()}"}}/index/*]`;
      const objectsWildcard =
        'AwsSolutions::AwsSolutions-IAM5[Resource::{"Fn::GetStackOutput":{"StackName":"Data",' +
        `"Region":{"Ref":"AWS::Region"},"OutputName":"${arnOutputName('AWS::S3::Bucket', 'MemoryBucket')}"}}/*]`;
      const auditExportsWildcard =
        'AwsSolutions::AwsSolutions-IAM5[Resource::{"Fn::GetStackOutput":{"StackName":"Data",' +
        `"Region":{"Ref":"AWS::Region"},"OutputName":"${arnOutputName('AWS::S3::Bucket', 'AuditExports')}"}}/audit/*]`;
      expect([...new Set(acknowledged.map((s) => s.acknowledgedId))].sort()).toEqual(
        [
          // The HTTP API's routes: callers are authenticated in the functions (lib/constructs/mcp-api.ts).
          'AwsSolutions::AwsSolutions-APIG4',
          'AwsSolutions::AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
          'AwsSolutions::AwsSolutions-IAM5[Action::kms:ReEncrypt*]',
          // The memory bucket's objects (grantMemoryBucket, lib/constructs/memory-bucket.ts).
          objectsWildcard,
          // The booking state machine's log delivery and X-Ray statements (lib/constructs/booking-workflow.ts).
          'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
          indexWildcard,
          // The Scheduler target's grantInvoke: the sync function and its versions and aliases.
          `AwsSolutions::AwsSolutions-IAM5[Resource::<${syncFunctionId(stacks!)}.Arn>:*]`,
          // The same for the memory compression function (lib/constructs/memory-compression-schedule.ts).
          `AwsSolutions::AwsSolutions-IAM5[Resource::<${memoryCompressionFunctionId(stacks!)}.Arn>:*]`,
          // The audit export: its exports under audit/ and its schedule (lib/constructs/audit-export-schedule.ts).
          auditExportsWildcard,
          `AwsSolutions::AwsSolutions-IAM5[Resource::<${auditExportFunctionId(stacks!)}.Arn>:*]`,
        ].sort(),
      );
      for (const s of acknowledged) expect(s.reason.length).toBeGreaterThan(80);
    });

    it('acknowledges the wildcard over the table’s indexes and no other wildcard resource', () => {
      const addStreamWildcard = ({ data, service }: MeridianStacks) =>
        service.mcpFunction.function.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:GetRecords'],
            resources: [`${data.table.tableArn}/stream/*`],
          }),
        );

      const synth = () => synthWithNag((app) => addStreamWildcard(meridianStacks(app)));

      expect(synth).toThrow(/AwsSolutions-IAM5\[Resource::.*\/stream\/\*\]/);
    });

    it('fails the synth on an unacknowledged error', () => {
      // A role with an AWS managed policy and no acknowledgement: AwsSolutions-IAM4, an error.
      const synth = () =>
        synthWithNag((app) => {
          const stack = new Stack(app, 'Careless');
          new Role(stack, 'Role', {
            assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
            managedPolicies: [
              ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole'),
            ],
          });
        });

      expect(synth).toThrow(/AwsSolutions-IAM4/);
    });
  });
});
