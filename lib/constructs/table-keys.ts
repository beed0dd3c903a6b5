/**
 * Physical names in Meridian's single DynamoDB table: the key attributes, the one global secondary
 * index and the TTL attribute. The table definition (`MeridianTable`) and the DynamoDB adapter
 * must agree on every one of them, and a rename is a data migration, not a refactoring.
 *
 * Must match lambdas/adapters/dynamodb/table-design.ts. This file imports nothing, so the runtime
 * can use the same names without pulling in aws-cdk-lib; the two are to become one module.
 */

/** Partition key of every item (string). */
export const PARTITION_KEY = 'pk';

/** Sort key of every item (string). */
export const SORT_KEY = 'sk';

/** The one global secondary index; it projects every attribute. */
export const GSI1_INDEX_NAME = 'gsi1';

/** Partition key of `gsi1` (string); items without it are not indexed. */
export const GSI1_PARTITION_KEY = 'gsi1pk';

/** Sort key of `gsi1` (string). */
export const GSI1_SORT_KEY = 'gsi1sk';

/**
 * Epoch seconds after which DynamoDB may delete the item. Garbage collection only: deletion can
 * lag by days and dynalite never deletes, so readers check expiry themselves (ARCHITECTURE.md).
 */
export const TTL_ATTRIBUTE = 'ttl';
