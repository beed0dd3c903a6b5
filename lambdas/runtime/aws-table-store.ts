import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbDocumentStore } from '../adapters/dynamodb/dynamodb-document-store.js';
import type { DocumentStore } from '../core/ports/index.js';

/**
 * The document store on the deployed table (MERIDIAN_TABLE_NAME), with the function's credentials.
 * A file of its own so that a function needing only the table (a booking step's cold start)
 * imports nothing else of the AWS composition.
 */
export function awsTableStore(tableName: string): DocumentStore {
  return new DynamoDbDocumentStore({ client: new DynamoDBClient({}), tableName });
}
