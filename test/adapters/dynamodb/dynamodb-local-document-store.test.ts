import { describe } from 'vitest';
import { dynamoDbLocalStore } from '../../support/dynalite-store.js';
import { JAVA, needs } from '../../support/system-parts.js';
import { describeDocumentStoreContract } from './document-store-contract.js';

// The file name contains "dynamodb-local": the global setup starts DynamoDB Local for this run.
describe('on DynamoDB Local', needs(JAVA), () => {
  describeDocumentStoreContract('DynamoDB Local (the AWS engine)', () => dynamoDbLocalStore('contract'));
});
