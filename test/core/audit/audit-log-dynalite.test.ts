import { randomUUID } from 'node:crypto';
import { startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../../../lambdas/adapters/dynamodb/local-dynamodb.js';
import { describeAuditLogOn } from './audit-log-contract.js';

describeAuditLogOn('dynalite', async () => {
  const dynalite = await startDynalite();
  const client = createLocalDynamoDbClient(dynalite.endpoint);
  const tableName = `audit-${randomUUID()}`;
  await ensureTable(client, tableName);
  return {
    store: new DynamoDbDocumentStore({ client, tableName }),
    close: async () => {
      client.destroy();
      await dynalite.close();
    },
  };
});
