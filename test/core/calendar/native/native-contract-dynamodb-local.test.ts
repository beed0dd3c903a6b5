import { dynamoDbLocalEndpoint } from '../../../support/dynamodb-local-endpoint.js';
import { describeNativeContract } from './native-contract.js';

describeNativeContract('DynamoDB Local', dynamoDbLocalEndpoint);
