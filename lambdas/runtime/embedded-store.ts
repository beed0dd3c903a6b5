import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { startDynalite } from '../adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../adapters/dynamodb/local-dynamodb.js';
import type { DocumentStore } from '../core/storage/document-store.js';

export const EMBEDDED_TABLE = 'meridian';

export interface EmbeddedStore {
  store: DocumentStore;
  /** True when another Meridian process (e.g. `serve`) already served this data dir and we joined it. */
  joined: boolean;
  close(): Promise<void>;
}

async function reachable(endpoint: string): Promise<boolean> {
  const client = createLocalDynamoDbClient(endpoint);
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(1500) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/**
 * The embedded runtime's document store: dynalite on disk under `<dataDir>/dynamodb`. LevelDB
 * allows one process per folder, so the process that opens it advertises its loopback endpoint in
 * `<dataDir>/dynamodb.endpoint`, and a CLI command run while `meridian serve` is up joins that
 * server instead of failing on the lock.
 */
export async function openEmbeddedStore(dataDir: string): Promise<EmbeddedStore> {
  const endpointFile = join(dataDir, 'dynamodb.endpoint');
  const advertised = await readFile(endpointFile, 'utf8').catch(() => '');
  if (advertised && (await reachable(advertised.trim()))) {
    const client = createLocalDynamoDbClient(advertised.trim());
    return {
      store: new DynamoDbDocumentStore({ client, tableName: EMBEDDED_TABLE }),
      joined: true,
      close: async () => client.destroy(),
    };
  }
  const server = await startDynalite({ path: join(dataDir, 'dynamodb') });
  const client = createLocalDynamoDbClient(server.endpoint);
  await ensureTable(client, EMBEDDED_TABLE);
  await writeFile(endpointFile, server.endpoint, { mode: 0o600 });
  return {
    store: new DynamoDbDocumentStore({ client, tableName: EMBEDDED_TABLE }),
    joined: false,
    close: async () => {
      client.destroy();
      await rm(endpointFile, { force: true });
      await server.close();
    },
  };
}
