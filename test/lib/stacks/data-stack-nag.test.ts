import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { describe, expect, it } from 'vitest';
import { DataStack } from '../../../lib/stacks/data-stack.js';
import { acknowledgements, synthWithNag, unacknowledged, unacknowledgedFindings } from '../synth-helpers.js';

describe('DataStack', () => {
  describe('cdk-nag AwsSolutions checks', () => {
    it("passes every check, acknowledging only the buckets' access logs, with a reason", () => {
      const report = synthWithNag((app) => new DataStack(app, 'Data'));

      expect(unacknowledged(report)).toEqual([]);
      const acknowledged = acknowledgements(report, 'Data/');
      expect(acknowledged.map((a) => a.acknowledgedId)).toEqual([
        'AwsSolutions::AwsSolutions-S1',
        'AwsSolutions::AwsSolutions-S1',
      ]);
      for (const a of acknowledged) expect(a.reason).toMatch(/CloudTrail/);
    });

    it('checks the bucket: without the TLS-only policy it gets an S10 error', () => {
      const findings = unacknowledgedFindings((app) => {
        const stack = new DataStack(app, 'Data');
        stack.node.findChild('MemoryBucket').node.findChild('Bucket').node.tryRemoveChild('Policy');
      });

      expect(findings).toContain('AwsSolutions error AwsSolutions-S10 at Data/MemoryBucket/Bucket/Resource');
    });

    it('checks the table: without point-in-time recovery it gets a DDB3 warning', () => {
      // Proves the rule inspects this table type at all (DDB3 ignores AWS::DynamoDB::GlobalTable).
      const findings = unacknowledgedFindings((app) => {
        const stack = new DataStack(app, 'Data');
        const table = stack.node.findChild('Table').node.findChild('Table').node.defaultChild as CfnTable;
        table.pointInTimeRecoverySpecification = { pointInTimeRecoveryEnabled: false };
      });

      expect(findings).toEqual(['AwsSolutions warning AwsSolutions-DDB3 at Data/Table/Table/Resource']);
    });
  });
});
