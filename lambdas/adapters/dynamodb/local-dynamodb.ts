import { setTimeout as sleep } from 'node:timers/promises';
import type { TableDescription } from '@aws-sdk/client-dynamodb';
import { retry } from '../../core/retry.js';
import {
  DynamoDbHttpClient,
  type DynamoDbHttpClientOptions,
  DynamoDbServiceError,
} from './dynamodb-http-client.js';
import { createTableInput, TABLE_DESIGN } from './table-design.js';

/** Local engines accept any signature; fixed values keep real AWS credentials out of local requests. */
const LOCAL = { region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

/**
 * A client for a DynamoDB endpoint on this machine (dynalite or DynamoDB Local).
 *
 * @example
 * const client = createLocalDynamoDbClient('http://127.0.0.1:8000');
 */
export function createLocalDynamoDbClient(
  endpoint: string,
  options?: Pick<DynamoDbHttpClientOptions, 'reconnect' | 'maxAttempts'>,
): DynamoDbHttpClient {
  return new DynamoDbHttpClient({ endpoint, ...LOCAL, ...options });
}

/**
 * A client for dynalite listening on a Unix domain socket: Node's HTTP agent connects to
 * `socketPath` instead of a host and port; the endpoint's host is then only the `Host` header.
 * Given `reconnect`, a request that finds no server waits for it and is sent again.
 *
 * @example
 * const client = createSocketDynamoDbClient(join(dataDir, 'dynamodb.sock'));
 */
export function createSocketDynamoDbClient(
  socketPath: string,
  options?: Pick<DynamoDbHttpClientOptions, 'reconnect' | 'maxAttempts'>,
): DynamoDbHttpClient {
  return new DynamoDbHttpClient({ endpoint: 'http://localhost', socketPath, ...LOCAL, ...options });
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
export async function ensureTable(client: DynamoDbHttpClient, tableName: string): Promise<void> {
  try {
    await client.send('CreateTable', createTableInput(tableName));
  } catch (error) {
    if (!(error instanceof DynamoDbServiceError && error.name === 'ResourceInUseException')) throw error;
  }
  assertTableDesign(await activeTable(client, tableName), tableName);
}

/** Polls until the table is ACTIVE (local engines take a moment after CreateTable), 30 s at most. */
async function activeTable(
  client: DynamoDbHttpClient,
  tableName: string,
): Promise<TableDescription | undefined> {
  const describe = async () => {
    const { Table: table } = await client.send<{ Table?: TableDescription }>('DescribeTable', {
      TableName: tableName,
    });
    if (table?.TableStatus !== 'ACTIVE') throw new NotActiveYet(tableName, table?.TableStatus);
    return table;
  };
  return retry(describe, {
    isRetryable: (error) => error instanceof NotActiveYet,
    deadline: { atMs: Date.now() + 30_000, now: Date.now },
    // 50 ms, doubling up to 1 s: a local table is usually ACTIVE by the first or second look.
    backoff: (attempt) => Math.min(50 * 2 ** attempt, 1_000),
    sleep: (ms) => sleep(ms),
  });
}

/** The table exists but is not ACTIVE yet; after the deadline, what `ensureTable` reports. */
class NotActiveYet extends Error {
  constructor(tableName: string, status: string | undefined) {
    super(`Table "${tableName}" is not ACTIVE after 30 s (${status}).`);
  }
}

function assertTableDesign(table: TableDescription | undefined, tableName: string): void {
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
