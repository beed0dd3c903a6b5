import { CfnOutput, type Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { DATA_KEY_ARN_ENV, TABLE_NAME_ENV } from '../../lambdas/runtime/environment-names.js';
import { AuditExportBucket } from '../constructs/audit-export-bucket.js';
import { DataKey } from '../constructs/data-key.js';
import { MemoryBucket } from '../constructs/memory-bucket.js';
import { MeridianTable } from '../constructs/meridian-table.js';

export interface DataStackProps extends StackProps {
  /**
   * Stage the data belongs to; it names the key alias (`alias/meridian-<stage>-data`), which
   * must be unique in the account and region.
   *
   * @default 'prod'
   */
  readonly stageName?: string;

  /**
   * How long each export of the audit log stays locked in its Object Lock bucket.
   *
   * @default Duration.days(365)
   */
  readonly auditRetention?: Duration;

  /**
   * The audit bucket's Object Lock mode (see AuditExportBucketProps.retentionMode).
   *
   * @default 'governance'
   */
  readonly auditRetentionMode?: 'governance' | 'compliance';
}

/**
 * Everything stateful: the data key, the table and the memory bucket it encrypts. A stack of its own because its
 * lifecycle differs from the service's: the service stack can be destroyed and redeployed at will,
 * this one holds the organization's data. Every resource here is retained, so even deleting this
 * stack leaves the data and the key that decrypts it.
 */
export class DataStack extends Stack {
  readonly table: ITable;
  readonly key: IKey;
  /** Project memory's blobs (bodies, indexes, snapshots); services get access through grants. */
  readonly memoryBucket: IBucket;
  /** Where the audit log is exported, each object locked for the retention (S3 Object Lock). */
  readonly auditExportBucket: IBucket;

  constructor(scope: Construct, id: string, props: DataStackProps = {}) {
    super(scope, id, props);

    this.key = new DataKey(this, 'DataKey', {
      aliasName: `alias/meridian-${props.stageName ?? 'prod'}-data`,
    }).key;
    this.table = new MeridianTable(this, 'Table', { encryptionKey: this.key }).table;
    this.memoryBucket = new MemoryBucket(this, 'MemoryBucket', { encryptionKey: this.key }).bucket;
    this.auditExportBucket = new AuditExportBucket(this, 'AuditExports', {
      encryptionKey: this.key,
      ...(props.auditRetention ? { retention: props.auditRetention } : {}),
      ...(props.auditRetentionMode ? { retentionMode: props.auditRetentionMode } : {}),
    }).bucket;

    // What `meridian --aws …` (keys, grants, connect) needs to administer this deployment.
    new CfnOutput(this, 'TableName', {
      value: this.table.tableName,
      description: `Set as ${TABLE_NAME_ENV} for \`npx meridian --aws keys create …\``,
    });
    new CfnOutput(this, 'DataKeyArn', {
      value: this.key.keyArn,
      description: `Set as ${DATA_KEY_ARN_ENV} for \`npx meridian --aws connect …\``,
    });
  }
}
