import { TABLE_DESIGN } from '../../lambdas/adapters/dynamodb/table-design.js';

/**
 * Physical names in Meridian's single DynamoDB table, taken from the one design the runtime also
 * uses for local tables (lambdas/adapters/dynamodb/table-design.ts), so the deployed table and
 * the adapter cannot drift apart. A rename is a data migration, not a refactoring.
 */

/** Partition key of every item (string). */
export const PARTITION_KEY = TABLE_DESIGN.partitionKey.name;

/** Sort key of every item (string). */
export const SORT_KEY = TABLE_DESIGN.sortKey.name;

/** The one global secondary index; it projects every attribute. */
export const GSI1_INDEX_NAME = TABLE_DESIGN.gsi1.indexName;

/** Partition key of `gsi1` (string); items without it are not indexed. */
export const GSI1_PARTITION_KEY = TABLE_DESIGN.gsi1.partitionKey.name;

/** Sort key of `gsi1` (string). */
export const GSI1_SORT_KEY = TABLE_DESIGN.gsi1.sortKey.name;

/**
 * Epoch seconds after which DynamoDB may delete the item. Garbage collection only: deletion can
 * lag by days and dynalite never deletes, so readers check expiry themselves (ARCHITECTURE.md).
 */
export const TTL_ATTRIBUTE = TABLE_DESIGN.timeToLiveAttribute;
