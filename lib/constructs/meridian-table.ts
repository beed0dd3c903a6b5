import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import {
  GSI1_INDEX_NAME,
  GSI1_PARTITION_KEY,
  GSI1_SORT_KEY,
  PARTITION_KEY,
  SORT_KEY,
  TTL_ATTRIBUTE,
} from './table-keys.js';

export interface MeridianTableProps {
  /** The customer-managed key that encrypts the table, its index and its backups at rest. */
  readonly encryptionKey: IKey;
}

/**
 * Meridian's single DynamoDB table (ARCHITECTURE.md: the DynamoDB adapter is the only document
 * store): `pk`/`sk` strings, one index `gsi1` projecting everything, on-demand billing,
 * point-in-time recovery, the data key at rest, a TTL attribute for garbage collection, deletion
 * protection, and retained when its stack is deleted or the table would be replaced.
 *
 * `Table` (AWS::DynamoDB::Table), not `TableV2` (AWS::DynamoDB::GlobalTable), although CDK
 * recommends the latter for new tables: `TableV2` writes a customer-managed key per replica
 * region and refuses to synthesize in a region-agnostic stack, and Meridian's stacks stay
 * environment-agnostic so that `cdk synth` needs no account, region or credentials. A second
 * region, should one be wanted, is a migration to `TableV2` (retain and re-import) on that day.
 */
export class MeridianTable extends Construct {
  readonly table: ITable;

  constructor(scope: Construct, id: string, props: MeridianTableProps) {
    super(scope, id);

    const table = new Table(this, 'Table', {
      partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: SORT_KEY, type: AttributeType.STRING },
      // One organization's traffic is small and bursty: paying per request beats idle capacity,
      // and there is no capacity to tune or to run out of.
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.encryptionKey,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Two guards: deletion protection stops a delete from the console or API, RETAIN a stack
      // deletion or a replacement that would otherwise drop the data.
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    table.addGlobalSecondaryIndex({
      indexName: GSI1_INDEX_NAME,
      partitionKey: { name: GSI1_PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: GSI1_SORT_KEY, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    this.table = table;
  }
}
