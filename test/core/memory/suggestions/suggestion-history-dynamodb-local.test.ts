import { dynamoDbLocalEndpoint } from '../../../support/dynamodb-local-endpoint.js';
import { describeSuggestionHistory } from './suggestion-history-suite.js';

describeSuggestionHistory('DynamoDB Local', dynamoDbLocalEndpoint);
