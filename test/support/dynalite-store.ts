import { randomUUID } from 'node:crypto';
import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../../lambdas/adapters/dynamodb/local-dynamodb.js';
import type { DocumentStore } from '../../lambdas/core/ports/index.js';
import { dynamoDbLocalEndpoint } from './dynamodb-local-endpoint.js';

/** A document store on one fresh table, and how to let it go. */
export interface StoreOnTable {
  store: DocumentStore;
  close(): Promise<void>;
}

/**
 * A document store on a dynalite of its own (in process, in memory) with one fresh table named
 * `<prefix>-<uuid>`: what the contract suites run on dynalite. `close` stops the server.
 */
export async function startDynaliteStore(prefix: string): Promise<StoreOnTable> {
  const dynalite = await startDynalite();
  const { store, close } = await storeOnFreshTable(dynalite.endpoint, prefix);
  return {
    store,
    close: async () => {
      await close();
      await dynalite.close();
    },
  };
}

/**
 * A document store on one fresh table `<prefix>-<uuid>` of the run's DynamoDB Local (started by
 * the global setup for files whose name contains "dynamodb-local"): what the contract suites run
 * on the AWS engine. `close` lets the client go; the server outlives the file.
 */
export async function dynamoDbLocalStore(prefix: string): Promise<StoreOnTable> {
  return storeOnFreshTable(dynamoDbLocalEndpoint(), prefix);
}

async function storeOnFreshTable(endpoint: string, prefix: string): Promise<StoreOnTable> {
  const client = createLocalDynamoDbClient(endpoint);
  const tableName = `${prefix}-${randomUUID()}`;
  await ensureTable(client, tableName);
  return {
    store: new DynamoDbDocumentStore({ client, tableName }),
    close: async () => {
      client.destroy();
    },
  };
}
