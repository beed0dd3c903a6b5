import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbDocumentStore } from '../adapters/dynamodb/dynamodb-document-store.js';
import type { DocumentStore } from '../core/ports/index.js';

const stores = new Map<string, DocumentStore>();

/**
 * The document store on the deployed table (MERIDIAN_TABLE_NAME), with the function's credentials:
 * one per table and process, so the schema check at cold start and the parts share one client and
 * the connection the check opens. A file of its own so that a function needing only the table (a
 * booking step's cold start) imports nothing else of the AWS composition.
 */
export function awsTableStore(tableName: string): DocumentStore {
  let store = stores.get(tableName);
  if (store === undefined) {
    store = new DynamoDbDocumentStore({ client: new DynamoDBClient({}), tableName });
    stores.set(tableName, store);
  }
  return store;
}
