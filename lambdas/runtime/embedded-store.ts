import { DynamoDbDocumentStore } from '../adapters/dynamodb/dynamodb-document-store.js';
import { createSocketDynamoDbClient } from '../adapters/dynamodb/local-dynamodb.js';
import type { DocumentStore } from '../core/ports/index.js';
import { EMBEDDED_TABLE, StoreTakeover } from './store-takeover.js';

export interface EmbeddedStore {
  store: DocumentStore;
  close(): Promise<void>;
}

/**
 * The embedded runtime's document store: dynalite on disk under `<dataDir>/dynamodb`, served on
 * the Unix socket `<dataDir>/dynamodb.sock` by one of the processes that use the folder (LevelDB
 * allows one per folder) and reached through that socket by all of them, the server included.
 * When the serving process exits, the next request of another one takes the store over (see
 * {@link StoreTakeover}) and is sent again, so no call fails for it.
 */
export async function openEmbeddedStore(dataDir: string): Promise<EmbeddedStore> {
  const takeover = new StoreTakeover(dataDir);
  await takeover.ensureServed();
  const client = createSocketDynamoDbClient(takeover.socketPath, {
    reconnect: () => takeover.ensureServed(),
  });
  return {
    store: new DynamoDbDocumentStore({ client, tableName: EMBEDDED_TABLE }),
    close: async () => {
      client.destroy();
      await takeover.release();
    },
  };
}
