import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct, type IConstruct } from 'constructs';
import { SEARCH_INDEX_PREFIX } from '../../lambdas/core/memory/search/memory-search.js';
import { acknowledgeWildcardResource } from './nag-acknowledgements.js';

export interface MemoryBucketProps {
  /** The customer-managed key that encrypts every object at rest (SSE-KMS). */
  readonly encryptionKey: IKey;

  /**
   * How long an object version stays recoverable after it was overwritten or deleted.
   *
   * @default Duration.days(30)
   */
  readonly noncurrentVersionRetention?: Duration;
}

/**
 * The bucket behind the blob-store port on AWS (lambdas/adapters/s3/s3-blob-store.ts): project
 * memory bodies too large for the table, search indexes and encrypted snapshots.
 *
 * Retained and versioned, because it holds the organization's data: a stack deletion leaves it,
 * and a deleted or damaged object can be recovered from its previous version for
 * `noncurrentVersionRetention`, after which a lifecycle rule expires the old version (the store
 * never overwrites, so old versions come only from deletes); old versions of search indexes
 * (`search-index/`, derived data) expire after one day. SSE-KMS under the data key with an
 * S3 Bucket Key (one KMS call per bucket key period instead of one per object), public access
 * blocked, ACLs disabled, and a policy that refuses any request not made over TLS 1.2 or later.
 */
export class MemoryBucket extends Construct {
  readonly bucket: IBucket;

  constructor(scope: Construct, id: string, props: MemoryBucketProps) {
    super(scope, id);

    const bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.KMS,
      encryptionKey: props.encryptionKey,
      bucketKeyEnabled: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      lifecycleRules: [
        {
          id: 'expire-noncurrent-versions',
          noncurrentVersionExpiration: props.noncurrentVersionRetention ?? Duration.days(30),
          // A delete marker with no versions left behind it hides nothing; drop it.
          expiredObjectDeleteMarker: true,
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        {
          // Search indexes are derived data, rebuilt from the table whenever memory changes: every
          // rebuild deletes the previous index, and its version is worth nothing after a day.
          id: 'expire-noncurrent-search-indexes',
          prefix: SEARCH_INDEX_PREFIX,
          noncurrentVersionExpiration: Duration.days(1),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions::AwsSolutions-S1',
      reason:
        'No server access logs: only Meridian functions reach this bucket, through their own roles, so ' +
        'every access is an authenticated IAM call that CloudTrail S3 data events record (with the caller, ' +
        'unlike access logs, which are best-effort); a log bucket would itself be an unlogged bucket, ' +
        'and could only be encrypted with SSE-S3, not with the data key.',
    });
    this.bucket = bucket;
  }
}

/**
 * Lets `grantee` make the blob store's calls on the memory bucket (lambdas/adapters/s3/s3-blob-store.ts:
 * GetObject and HeadObject, PutObject, DeleteObject on its objects, ListObjects on the bucket) and
 * use its key as S3 does for them (SSE-KMS: GenerateDataKey to write, Decrypt to read), and
 * acknowledges the objects wildcard for cdk-nag on `nagScope` (the grantee's role). Narrower than
 * `grantReadWrite` (no object ACLs, tags, versions, legal holds or bucket settings): no bundle sends
 * those (test/rehearsal checks it).
 *
 * @example
 * grantMemoryBucket(role, role, props.memoryBucket);
 */
export function grantMemoryBucket(grantee: IGrantable, nagScope: IConstruct, bucket: IBucket): void {
  Grant.addToPrincipal({
    grantee,
    actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
    resourceArns: [bucket.arnForObjects('*')],
  });
  Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket'], resourceArns: [bucket.bucketArn] });
  bucket.encryptionKey?.grant(grantee, 'kms:Decrypt', 'kms:GenerateDataKey');

  acknowledgeWildcardResource(
    nagScope,
    bucket.arnForObjects('*'),
    '<bucket ARN>/* is granted for the objects of the memory bucket: blob keys are ' +
      'chosen at run time (projects/<id>/…), and the wildcard covers this one bucket and no other.',
  );
}
