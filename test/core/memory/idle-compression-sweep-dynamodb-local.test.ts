import { describe } from 'vitest';
import { dynamoDbLocalEndpoint } from '../../support/dynamodb-local-endpoint.js';
import { JAVA, needs } from '../../support/system-parts.js';
import { describeIdleSweep } from './idle-compression-sweep-suite.js';

describe('on DynamoDB Local', needs(JAVA), () => describeIdleSweep('DynamoDB Local', dynamoDbLocalEndpoint));
