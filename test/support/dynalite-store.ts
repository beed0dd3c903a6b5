import { randomUUID } from 'node:crypto';
import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../../lambdas/adapters/dynamodb/local-dynamodb.js';
import type { DocumentStore } from '../../lambdas/core/ports/index.js';

/**
 * A document store on a dynalite of its own (in process, in memory) with one fresh table named
 * `<prefix>-<uuid>`: what the contract suites run on dynalite. `close` stops the server.
 */
export async function startDynaliteStore(
  prefix: string,
): Promise<{ store: DocumentStore; close(): Promise<void> }> {
  const dynalite = await startDynalite();
  const client = createLocalDynamoDbClient(dynalite.endpoint);
  const tableName = `${prefix}-${randomUUID()}`;
  await ensureTable(client, tableName);
  return {
    store: new DynamoDbDocumentStore({ client, tableName }),
    close: async () => {
      client.destroy();
      await dynalite.close();
    },
  };
}
