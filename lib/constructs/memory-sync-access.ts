import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { CLOUD_SYNC_KEY_PREFIX } from '../../lambdas/core/memory/snapshots/cloud-target.js';
import {
  MEMORY_SYNC_BUCKET_ENV,
  MEMORY_SYNC_KMS_KEY_ARN_ENV,
} from '../../lambdas/runtime/environment-names.js';
import { acknowledgeWildcardResource } from './nag-acknowledgements.js';

/** The organisation's bucket and KMS key that project memory syncs through (context `memorySyncBucket`, `memorySyncKeyArn`). */
export interface MemorySyncTarget {
  readonly bucket: IBucket;
  readonly key: IKey;
}

/**
 * Lets `grantee` sync project memory through `target`, and answers the environment that tells
 * the runtime where (MERIDIAN_MEMORY_SYNC_BUCKET, MERIDIAN_MEMORY_SYNC_KMS_KEY_ARN):
 * - read and write objects under `projects/` only (the bucket may hold the organisation's other
 *   data): `s3:GetObject` (also what HEAD needs) and `s3:PutObject`; the sync never deletes;
 * - `s3:ListBucket` on the bucket, without a prefix condition: the sync lists a project's heads,
 *   and S3 answers a HEAD of a missing key with 404 only to a caller that may list the bucket
 *   (403 otherwise, which would break the create-only check before each upload). It reveals key
 *   names, never content;
 * - `kms:Encrypt`, `kms:Decrypt`, `kms:GenerateDataKey` on the one key (the Encryption SDK's KMS
 *   keyring encrypts every object before upload).
 *
 * @example
 * const environment = grantMemorySync(role, role, { bucket, key });
 */
export function grantMemorySync(
  grantee: IGrantable,
  nagScope: IConstruct,
  target: MemorySyncTarget,
): Record<string, string> {
  const objects = target.bucket.arnForObjects(`${CLOUD_SYNC_KEY_PREFIX}*`);
  Grant.addToPrincipal({ grantee, actions: ['s3:GetObject', 's3:PutObject'], resourceArns: [objects] });
  Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket'], resourceArns: [target.bucket.bucketArn] });
  target.key.grant(grantee, 'kms:Encrypt', 'kms:Decrypt', 'kms:GenerateDataKey');
  acknowledgeWildcardResource(
    nagScope,
    objects,
    `<sync bucket ARN>/${CLOUD_SYNC_KEY_PREFIX}* covers the objects cloud sync reads and writes in the organisation's ` +
      'sync bucket: keys are chosen at run time (projects/<id>/snapshots/…, projects/<id>/sync-head/…), and the ' +
      'wildcard covers only that prefix of that one bucket.',
  );
  return {
    [MEMORY_SYNC_BUCKET_ENV]: target.bucket.bucketName,
    [MEMORY_SYNC_KMS_KEY_ARN_ENV]: target.key.keyArn,
  };
}
