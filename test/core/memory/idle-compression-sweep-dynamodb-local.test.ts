import { dynamoDbLocalEndpoint } from '../../support/dynamodb-local-endpoint.js';
import { describeIdleSweep } from './idle-compression-sweep-suite.js';

describeIdleSweep('DynamoDB Local', dynamoDbLocalEndpoint);
