import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The physical design of Meridian's single table, shared by the CDK data stack and by local table
 * creation (dynalite, DynamoDB Local) so that the two can never drift apart.
 * Attribute types use DynamoDB's codes ('S' = string), which are also the values of CDK's
 * `AttributeType` enum.
 */
export const TABLE_DESIGN = {
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  gsi1: {
    indexName: 'gsi1',
    partitionKey: { name: 'gsi1pk', type: 'S' },
    sortKey: { name: 'gsi1sk', type: 'S' },
    projection: 'ALL',
  },
  /** Epoch seconds; garbage collection only — expiry is always checked in conditions and on read. */
  timeToLiveAttribute: 'ttl',
  billingMode: 'PAY_PER_REQUEST',
} as const;

/** The key attribute names of the table and of the index, as the store and cursors need them. */
export const TABLE_KEYS = {
  partition: TABLE_DESIGN.partitionKey.name,
  sort: TABLE_DESIGN.sortKey.name,
} as const;
export const GSI1_KEYS = {
  partition: TABLE_DESIGN.gsi1.partitionKey.name,
  sort: TABLE_DESIGN.gsi1.sortKey.name,
} as const;

/**
 * The `CreateTable` request for a table with {@link TABLE_DESIGN}, used where no CDK runs (the
 * embedded runtime and tests). TTL cannot be part of `CreateTable` (it is `UpdateTimeToLive`, which
 * dynalite lacks); locally nothing relies on TTL deletion, so it is left off there.
 *
 * @example
 * await client.send(new CreateTableCommand(createTableInput('meridian')));
 */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const { partitionKey, sortKey, gsi1, billingMode } = TABLE_DESIGN;
  return {
    TableName: tableName,
    BillingMode: billingMode,
    AttributeDefinitions: [partitionKey, sortKey, gsi1.partitionKey, gsi1.sortKey].map((key) => ({
      AttributeName: key.name,
      AttributeType: key.type,
    })),
    KeySchema: [
      { AttributeName: partitionKey.name, KeyType: 'HASH' },
      { AttributeName: sortKey.name, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: gsi1.indexName,
        KeySchema: [
          { AttributeName: gsi1.partitionKey.name, KeyType: 'HASH' },
          { AttributeName: gsi1.sortKey.name, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: gsi1.projection },
      },
    ],
  };
}
