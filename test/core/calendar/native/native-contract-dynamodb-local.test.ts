import { describe } from 'vitest';
import { dynamoDbLocalEndpoint } from '../../../support/dynamodb-local-endpoint.js';
import { JAVA, needs } from '../../../support/system-parts.js';
import { describeNativeContract } from './native-contract.js';

describe('on DynamoDB Local', needs(JAVA), () =>
  describeNativeContract('DynamoDB Local', dynamoDbLocalEndpoint),
);
