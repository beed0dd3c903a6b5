import { describe } from 'vitest';
import { dynamoDbLocalEndpoint } from '../../../support/dynamodb-local-endpoint.js';
import { JAVA, needs } from '../../../support/system-parts.js';
import { describeSuggestionHistory } from './suggestion-history-suite.js';

describe('on DynamoDB Local', needs(JAVA), () =>
  describeSuggestionHistory('DynamoDB Local', dynamoDbLocalEndpoint),
);
