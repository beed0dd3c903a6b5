import { dynamoDbLocalEndpoint } from '../../support/dynamodb-local-endpoint.js';
import { describeMemoryStore } from './memory-store-suite.js';

describeMemoryStore('DynamoDB Local', dynamoDbLocalEndpoint);
