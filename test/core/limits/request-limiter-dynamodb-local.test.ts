import { dynamoDbLocalStore } from '../../support/dynalite-store.js';
import { JAVA, needs } from '../../support/system-parts.js';
import { describeRequestLimiterOn } from './request-limiter-contract.js';

// The file name contains "dynamodb-local": the global setup starts DynamoDB Local for this run.
describeRequestLimiterOn('DynamoDB Local (the AWS engine)', () => dynamoDbLocalStore('limits'), needs(JAVA));
