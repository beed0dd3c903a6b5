import { dynamoDbLocalEndpoint } from '../../support/dynamodb-local-endpoint.js';
import { describeBookingContention } from './booking-contention.js';

describeBookingContention('DynamoDB Local', dynamoDbLocalEndpoint);
