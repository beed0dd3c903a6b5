import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { indexFolder } from '../../../lambdas/core/memory/search/memory-search.js';
import { DataStack, type DataStackProps } from '../../../lib/stacks/data-stack.js';
import { testApp } from '../synth-helpers.js';

function synthesize(props: DataStackProps = {}): Template {
  return Template.fromStack(new DataStack(testApp(), 'Data', props));
}

function onlyLogicalId(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

describe('DataStack', () => {
  describe('table', () => {
    it('keys items by pk and sk, both strings', () => {
      const template = synthesize();

      template.hasResourceProperties('AWS::DynamoDB::Table', {
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ]),
      });
    });

    it('has exactly one index, gsi1 on gsi1pk and gsi1sk, projecting every attribute', () => {
      const template = synthesize();

      template.hasResourceProperties('AWS::DynamoDB::Table', {
        GlobalSecondaryIndexes: [
          {
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: 'gsi1pk', AttributeType: 'S' },
          { AttributeName: 'gsi1sk', AttributeType: 'S' },
        ]),
        LocalSecondaryIndexes: Match.absent(),
      });
    });

    it('bills on demand, keeps point-in-time recovery and expires items by the ttl attribute', () => {
      const template = synthesize();

      template.hasResourceProperties('AWS::DynamoDB::Table', {
        BillingMode: 'PAY_PER_REQUEST',
        ProvisionedThroughput: Match.absent(),
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      });
    });

    it('is encrypted at rest with its own customer-managed key', () => {
      const template = synthesize();
      const keyId = onlyLogicalId(template, 'AWS::KMS::Key');

      template.hasResourceProperties('AWS::DynamoDB::Table', {
        SSESpecification: {
          SSEEnabled: true,
          SSEType: 'KMS',
          KMSMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
        },
      });
    });

    it('survives a console delete, a stack delete and a replacement', () => {
      const template = synthesize();

      template.hasResource('AWS::DynamoDB::Table', {
        Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    });

    it('leaves the table name to CloudFormation', () => {
      const template = synthesize();

      template.hasResourceProperties('AWS::DynamoDB::Table', { TableName: Match.absent() });
    });
  });

  describe('key', () => {
    it('is one symmetric key with yearly rotation, retained on stack delete and replacement', () => {
      const template = synthesize();

      template.resourceCountIs('AWS::KMS::Key', 1);
      template.hasResource('AWS::KMS::Key', {
        Properties: Match.objectLike({
          EnableKeyRotation: true,
          KeySpec: Match.absent(),
          Description: Match.stringLikeRegexp('DynamoDB table.*envelope encryption'),
        }),
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    });

    it('is aliased by stage, prod by default', () => {
      const dev = synthesize({ stageName: 'dev' });
      const prod = synthesize();

      const keyId = onlyLogicalId(dev, 'AWS::KMS::Key');
      dev.hasResourceProperties('AWS::KMS::Alias', {
        AliasName: 'alias/meridian-dev-data',
        TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
      });
      prod.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/meridian-prod-data' });
    });
  });

  describe('memory bucket', () => {
    it('encrypts every object with the data key (SSE-KMS, with a bucket key)', () => {
      const template = synthesize();
      const keyId = onlyLogicalId(template, 'AWS::KMS::Key');

      template.hasResourceProperties('AWS::S3::Bucket', {
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [
            {
              ServerSideEncryptionByDefault: {
                SSEAlgorithm: 'aws:kms',
                KMSMasterKeyID: { 'Fn::GetAtt': [keyId, 'Arn'] },
              },
              BucketKeyEnabled: true,
            },
          ],
        },
      });
    });

    it('blocks every form of public access and disables ACLs', () => {
      const template = synthesize();

      template.hasResourceProperties('AWS::S3::Bucket', {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      });
    });

    it('refuses requests without TLS, and below TLS 1.2', () => {
      const template = synthesize();
      const bucketId = Object.keys(template.findResources('AWS::S3::Bucket')).find((id) =>
        id.startsWith('MemoryBucket'),
      )!;
      const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };
      const objects = { 'Fn::Join': ['', [bucketArn, '/*']] };

      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: bucketId },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Principal: { AWS: '*' },
              Action: 's3:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
              Resource: [bucketArn, objects],
            }),
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
            }),
          ]),
        },
      });
    });

    it('keeps old versions for 30 days, those of search indexes for 1 day, then expires them', () => {
      const template = synthesize();

      template.hasResourceProperties('AWS::S3::Bucket', {
        VersioningConfiguration: { Status: 'Enabled' },
        LifecycleConfiguration: {
          Rules: [
            Match.objectLike({
              Id: 'expire-noncurrent-versions',
              Status: 'Enabled',
              Prefix: Match.absent(),
              NoncurrentVersionExpiration: { NoncurrentDays: 30 },
              ExpiredObjectDeleteMarker: true,
              AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
              ExpirationInDays: Match.absent(),
            }),
            // The prefix is the one search indexes are written under (derived data, rebuilt often).
            {
              Id: 'expire-noncurrent-search-indexes',
              Status: 'Enabled',
              Prefix: indexFolder('p1').replace('p1/', ''),
              NoncurrentVersionExpiration: { NoncurrentDays: 1 },
            },
          ],
        },
      });
    });

    it('survives a stack delete and a replacement, and leaves its name to CloudFormation', () => {
      const template = synthesize();

      template.hasResource('AWS::S3::Bucket', {
        Properties: Match.objectLike({ BucketName: Match.absent() }),
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    });
  });

  describe('resources', () => {
    it('holds only the table, the memory and audit buckets and their policies, the key and its alias', () => {
      const template = synthesize();

      const types = Object.values(template.toJSON().Resources as Record<string, { Type: string }>)
        .map((r) => r.Type)
        .sort();
      expect(types).toEqual([
        'AWS::DynamoDB::Table',
        'AWS::KMS::Alias',
        'AWS::KMS::Key',
        'AWS::S3::Bucket',
        'AWS::S3::Bucket',
        'AWS::S3::BucketPolicy',
        'AWS::S3::BucketPolicy',
      ]);
    });
  });
});
