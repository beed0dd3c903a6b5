import { dynamoDbLocalStore } from '../../support/dynalite-store.js';
import { JAVA, needs } from '../../support/system-parts.js';
import { describeAuditLogOn } from './audit-log-contract.js';

// The file name contains "dynamodb-local": the global setup starts DynamoDB Local for this run.
describeAuditLogOn('DynamoDB Local (the AWS engine)', () => dynamoDbLocalStore('audit'), needs(JAVA));
