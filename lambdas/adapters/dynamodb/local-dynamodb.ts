import { Agent, type AgentOptions } from 'node:http';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_DESIGN } from './table-design.js';

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * A client for a DynamoDB endpoint on this machine (dynalite or DynamoDB Local). The region and
 * credentials are dummies: local engines accept any signature, and fixed values keep the SDK from
 * searching the environment for real AWS credentials.
 *
 * @example
 * const client = createLocalDynamoDbClient('http://127.0.0.1:8000');
 */
export function createLocalDynamoDbClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: LOCAL_CREDENTIALS,
  });
}

/**
 * A client for dynalite listening on a Unix domain socket. The SDK speaks HTTP through Node's
 * `http.Agent`, which connects to `socketPath` instead of a host and port when given one; the
 * endpoint's host is then only the `Host` header. Keep-alive spares a connect per request.
 *
 * @example
 * const client = createSocketDynamoDbClient(join(dataDir, 'dynamodb.sock'));
 */
export function createSocketDynamoDbClient(socketPath: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint: 'http://localhost',
    region: 'local',
    credentials: LOCAL_CREDENTIALS,
    // An agent's options reach every request it makes; @types/node lists `socketPath` only on requests.
    requestHandler: { httpAgent: new Agent({ keepAlive: true, socketPath } as AgentOptions) },
  });
}

/**
 * Creates the table with Meridian's design if it does not exist yet, then waits until it is ACTIVE.
 * Safe to call on every start, and by several processes at once (a concurrent creation surfaces as
 * ResourceInUseException, which means the table is there). Fails when an existing table has other
 * keys or lacks the index, e.g. a data folder written by something else.
 *
 * @example
 * await ensureTable(createLocalDynamoDbClient(endpoint), 'meridian');
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilTableExists(
    { client, minDelay: 0.05, maxDelay: 1, maxWaitTime: 30 },
    { TableName: tableName },
  );
  await assertTableDesign(client, tableName);
}

async function assertTableDesign(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const keys = (table?.KeySchema ?? []).map((key) => `${key.AttributeName}:${key.KeyType}`).join(',');
  const expectedKeys = `${TABLE_DESIGN.partitionKey.name}:HASH,${TABLE_DESIGN.sortKey.name}:RANGE`;
  const hasIndex = (table?.GlobalSecondaryIndexes ?? []).some(
    (index) => index.IndexName === TABLE_DESIGN.gsi1.indexName,
  );
  if (keys !== expectedKeys || !hasIndex) {
    throw new Error(
      `Table "${tableName}" exists with another design (keys ${keys || 'none'}, index ${TABLE_DESIGN.gsi1.indexName} ${hasIndex ? 'present' : 'missing'}); expected keys ${expectedKeys} and index ${TABLE_DESIGN.gsi1.indexName}. Use another table name or data folder.`,
    );
  }
}
