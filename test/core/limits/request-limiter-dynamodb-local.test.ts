import { randomUUID } from 'node:crypto';
import { DynamoDbDocumentStore } from '../../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../../../lambdas/adapters/dynamodb/local-dynamodb.js';
import { dynamoDbLocalEndpoint } from '../../support/dynamodb-local-endpoint.js';
import { JAVA, needs } from '../../support/system-parts.js';
import { describeRequestLimiterOn } from './request-limiter-contract.js';

// The file name contains "dynamodb-local": the global setup starts DynamoDB Local for this run.
describeRequestLimiterOn(
  'DynamoDB Local (the AWS engine)',
  async () => {
    const client = createLocalDynamoDbClient(dynamoDbLocalEndpoint());
    const tableName = `limits-${randomUUID()}`;
    await ensureTable(client, tableName);
    return {
      store: new DynamoDbDocumentStore({ client, tableName }),
      close: async () => {
        client.destroy();
      },
    };
  },
  needs(JAVA),
);
