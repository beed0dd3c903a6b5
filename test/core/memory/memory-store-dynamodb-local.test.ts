import { describe } from 'vitest';
import { dynamoDbLocalEndpoint } from '../../support/dynamodb-local-endpoint.js';
import { JAVA, needs } from '../../support/system-parts.js';
import { describeMemoryStore } from './memory-store-suite.js';

describe('on DynamoDB Local', needs(JAVA), () =>
  describeMemoryStore('DynamoDB Local', dynamoDbLocalEndpoint),
);
