import { describe } from 'vitest';
import { dynamoDbLocalEndpoint } from '../../support/dynamodb-local-endpoint.js';
import { JAVA, needs } from '../../support/system-parts.js';
import { describeBookingContention } from './booking-contention.js';

describe('on DynamoDB Local', needs(JAVA), () =>
  describeBookingContention('DynamoDB Local', dynamoDbLocalEndpoint),
);
