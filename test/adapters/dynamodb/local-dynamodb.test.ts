import type { TableDescription } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynaliteServer, startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import type { DynamoDbHttpClient } from '../../../lambdas/adapters/dynamodb/dynamodb-http-client.js';
import { createLocalDynamoDbClient, ensureTable } from '../../../lambdas/adapters/dynamodb/local-dynamodb.js';

describe('ensureTable', () => {
  let dynalite: DynaliteServer;
  let client: DynamoDbHttpClient;

  beforeAll(async () => {
    dynalite = await startDynalite();
    client = createLocalDynamoDbClient(dynalite.endpoint);
  });
  afterAll(async () => {
    client?.destroy();
    await dynalite?.close();
  });

  it('creates the table with the shared design: pk/sk keys and the gsi1 index projecting all', async () => {
    await ensureTable(client, 'designed');

    const { Table } = await client.send<{ Table?: TableDescription }>('DescribeTable', {
      TableName: 'designed',
    });
    expect(Table?.TableStatus).toBe('ACTIVE');
    expect(Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    const [index] = Table?.GlobalSecondaryIndexes ?? [];
    expect(index?.IndexName).toBe('gsi1');
    expect(index?.KeySchema).toEqual([
      { AttributeName: 'gsi1pk', KeyType: 'HASH' },
      { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
    ]);
    expect(index?.Projection).toEqual({ ProjectionType: 'ALL' });
  });

  it('is idempotent, also when called concurrently', async () => {
    await Promise.all([
      ensureTable(client, 'twice'),
      ensureTable(client, 'twice'),
      ensureTable(client, 'twice'),
    ]);
    await ensureTable(client, 'twice');

    const { Table } = await client.send<{ Table?: TableDescription }>('DescribeTable', {
      TableName: 'twice',
    });
    expect(Table?.TableStatus).toBe('ACTIVE');
  });

  it('refuses an existing table with another design', async () => {
    await client.send('CreateTable', {
      TableName: 'foreign',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    });

    await expect(ensureTable(client, 'foreign')).rejects.toThrow(
      'Table "foreign" exists with another design',
    );
  });
});
