import { Stack } from 'aws-cdk-lib';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { acknowledgeWildcardResource } from '../../../lib/constructs/nag-acknowledgements.js';
import { acknowledgements, synthWithNag, unacknowledged } from '../synth-helpers.js';

/** A role that may read a table and its indexes, all in one stack. */
function tableReader(stack: Stack): { role: Role; table: Table } {
  const table = new Table(stack, 'Table', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  });
  table.addGlobalSecondaryIndex({
    indexName: 'byOwner',
    partitionKey: { name: 'owner', type: AttributeType.STRING },
  });
  const role = new Role(stack, 'Reader', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  table.grantReadData(role);
  return { role, table };
}

describe('acknowledgeWildcardResource', () => {
  it('acknowledges the index wildcard of a table in the same stack, named as cdk-nag names it', () => {
    const report = synthWithNag((app) => {
      const stack = new Stack(app, 'Single');
      const { role, table } = tableReader(stack);
      acknowledgeWildcardResource(role, `${table.tableArn}/index/*`, 'The reader queries the byOwner index.');
    });

    expect(unacknowledged(report)).toEqual([]);
    const ids = acknowledgements(report, 'Single/').map((a) => a.acknowledgedId);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(
      /^AwsSolutions::AwsSolutions-IAM5\[Resource::<Table[0-9A-F]{8}\.Arn>\/index\/\*\]$/,
    );
  });

  it('leaves a wildcard it was not given to fail the synth', () => {
    const synth = () =>
      synthWithNag((app) => {
        const stack = new Stack(app, 'Single');
        const { role, table } = tableReader(stack);
        acknowledgeWildcardResource(role, `${table.tableArn}/stream/*`, 'Not the wildcard the grant wrote.');
      });

    expect(synth).toThrow(/AwsSolutions-IAM5\[Resource::<Table[0-9A-F]{8}\.Arn>\/index\/\*\]/);
  });
});
