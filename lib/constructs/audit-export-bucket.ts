import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectLockRetention,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface AuditExportBucketProps {
  /** The customer-managed key that encrypts every export at rest (SSE-KMS). */
  readonly encryptionKey: IKey;

  /**
   * How long each export is locked after it is written: no one can overwrite or delete it before.
   *
   * @default Duration.days(365)
   */
  readonly retention?: Duration;

  /**
   * `governance`: a principal granted `s3:BypassGovernanceRetention` (no Meridian role is) may
   * still delete an export early. `compliance`: no one can, the account's root user included,
   * until the retention ends — choose it once the retention is settled, as it cannot be shortened.
   *
   * @default 'governance'
   */
  readonly retentionMode?: 'governance' | 'compliance';
}

/**
 * The bucket the audit log is exported to (lambdas/adapters/s3/s3-audit-archive.ts), with S3
 * Object Lock: a default retention locks every object version as it is written, so a chain
 * rewritten in the table afterwards (by someone holding the table's write rights) no longer
 * matches the copy locked here — the anchor that makes a rewritten tail detectable
 * (docs/adr/0014). Retained, versioned (Object Lock requires it), SSE-KMS under the data key with
 * an S3 Bucket Key, public access blocked, ACLs disabled, TLS 1.2+ only.
 */
export class AuditExportBucket extends Construct {
  readonly bucket: IBucket;

  constructor(scope: Construct, id: string, props: AuditExportBucketProps) {
    super(scope, id);

    const retention = props.retention ?? Duration.days(365);
    const bucket = new Bucket(this, 'Bucket', {
      objectLockEnabled: true,
      objectLockDefaultRetention:
        props.retentionMode === 'compliance'
          ? ObjectLockRetention.compliance(retention)
          : ObjectLockRetention.governance(retention),
      versioned: true,
      encryption: BucketEncryption.KMS,
      encryptionKey: props.encryptionKey,
      bucketKeyEnabled: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions::AwsSolutions-S1',
      reason:
        'No server access logs: only the audit export function writes here, through its own role, so ' +
        'every write is an authenticated IAM call that CloudTrail S3 data events record (with the caller, ' +
        'unlike access logs, which are best-effort); the objects themselves are locked against change.',
    });
    this.bucket = bucket;
  }
}
