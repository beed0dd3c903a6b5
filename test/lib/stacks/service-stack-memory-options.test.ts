import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import type { ServiceStackProps } from '../../../lib/stacks/service-stack.js';
import { meridianStacks, synthWithNag, testApp, unacknowledged } from '../synth-helpers.js';

interface Statement {
  Action: string | string[];
  Effect: string;
  Resource: unknown;
  Condition?: unknown;
}

const SYNC = {
  bucketName: 'acme-meridian-sync',
  keyArn: 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab',
};
/** The MCP function's construct id: its resources' logical ids start with it. */
const MCP = 'McpFunction';

function synthesize(props: Partial<ServiceStackProps> = {}): Template {
  return Template.fromStack(meridianStacks(testApp(), props).service);
}

/** Every statement of the IAM policies whose logical id starts with `owner` (all when empty). */
function statements(template: Template, owner = ''): Statement[] {
  return Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith(owner))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const on = (service: string) => (s: Statement) => actionsOf(s).some((a) => a.startsWith(`${service}:`));

/** The MCP function's environment variables. */
function mcpEnvironment(template: Template): Record<string, unknown> {
  const functions = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) =>
    id.startsWith(MCP),
  );
  expect(functions).toHaveLength(1);
  return (functions[0]![1].Properties.Environment as { Variables: Record<string, unknown> }).Variables;
}

/** An ARN as CloudFormation renders a partition-relative one: `arn:` + partition + `rest`. */
const partitionArn = (rest: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, rest]] });

describe('ServiceStack memory options', () => {
  describe('embeddings', () => {
    it('grants nothing of Bedrock and sets no embedder by default (the local embedder)', () => {
      const template = synthesize();

      expect(statements(template).filter(on('bedrock'))).toEqual([]);
      expect(mcpEnvironment(template)).not.toHaveProperty('MERIDIAN_EMBEDDINGS');
    });

    it('with bedrock, lets only the MCP function invoke Titan Text Embeddings v2, and tells it so', () => {
      const template = synthesize({ embeddings: { model: 'bedrock', dimension: 512 } });

      expect(statements(template).filter(on('bedrock'))).toEqual([
        {
          Action: 'bedrock:InvokeModel',
          Effect: 'Allow',
          Resource: {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':bedrock:',
                { Ref: 'AWS::Region' },
                '::foundation-model/amazon.titan-embed-text-v2:0',
              ],
            ],
          },
        },
      ]);
      expect(statements(template, MCP).filter(on('bedrock'))).toHaveLength(1);
      expect(mcpEnvironment(template)).toMatchObject({
        MERIDIAN_EMBEDDINGS: 'bedrock',
        MERIDIAN_EMBEDDING_DIMENSION: '512',
      });
    });
  });

  describe('cloud sync', () => {
    it('grants nothing and sets nothing without a sync bucket (sync answers it is not configured)', () => {
      const template = synthesize();
      const environment = mcpEnvironment(template);

      expect(environment).not.toHaveProperty('MERIDIAN_MEMORY_SYNC_BUCKET');
      expect(environment).not.toHaveProperty('MERIDIAN_MEMORY_SYNC_KMS_KEY_ARN');
      expect(JSON.stringify(statements(template))).not.toContain(SYNC.bucketName);
    });

    it('names the bucket and key in the environment of the MCP function', () => {
      const environment = mcpEnvironment(synthesize({ memorySync: SYNC }));

      expect(environment).toMatchObject({
        MERIDIAN_MEMORY_SYNC_BUCKET: SYNC.bucketName,
        MERIDIAN_MEMORY_SYNC_KMS_KEY_ARN: SYNC.keyArn,
      });
    });

    it('lets it read and write objects under projects/ only, list the bucket, and use the key for the Encryption SDK', () => {
      const template = synthesize({ memorySync: SYNC });

      const onSync = statements(template).filter(
        (s) => JSON.stringify(s).includes(SYNC.bucketName) || JSON.stringify(s).includes(SYNC.keyArn),
      );
      expect(onSync).toEqual([
        // One statement lists both buckets (CDK merges statements of one action): the memory bucket's ARN first.
        {
          Action: 's3:ListBucket',
          Effect: 'Allow',
          Resource: [
            {
              'Fn::GetStackOutput': expect.objectContaining({
                OutputName: expect.stringMatching(/MemoryBucket/),
              }),
            },
            partitionArn(`:s3:::${SYNC.bucketName}`),
          ],
        },
        {
          Action: ['s3:GetObject', 's3:PutObject'],
          Effect: 'Allow',
          Resource: partitionArn(`:s3:::${SYNC.bucketName}/projects/*`),
        },
        {
          Action: ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'],
          Effect: 'Allow',
          Resource: SYNC.keyArn,
        },
      ]);
      expect(JSON.stringify(statements(template, MCP))).toContain(SYNC.bucketName);
      // No other function (booking steps, the calendar sync) may touch the sync bucket or key.
      const elsewhere = Object.entries(template.findResources('AWS::IAM::Policy')).filter(
        ([id, policy]) => !id.startsWith(MCP) && JSON.stringify(policy).match(/acme-meridian-sync|1234abcd/),
      );
      expect(elsewhere).toEqual([]);
    });
  });

  describe('cdk-nag', () => {
    it('leaves no unacknowledged finding with Bedrock embeddings and cloud sync configured', () => {
      const report = synthWithNag((app) =>
        meridianStacks(app, { embeddings: { model: 'bedrock' }, memorySync: SYNC }),
      );

      expect(unacknowledged(report)).toEqual([]);
    });
  });
});
