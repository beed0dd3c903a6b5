import { inject } from 'vitest';

/**
 * The endpoint of the run's DynamoDB Local, started by test/support/global-setup.ts. Throws (so
 * the test fails, never skips) when it could not start, e.g. because Java is missing.
 *
 * @example
 * const client = createLocalDynamoDbClient(dynamoDbLocalEndpoint());
 */
export function dynamoDbLocalEndpoint(): string {
  const provision = inject('dynamoDbLocal');
  if (provision === undefined) {
    throw new Error(
      'DynamoDB Local was not started for this run: the global setup (test/support/global-setup.ts, ' +
        'listed in vitest.config.ts) starts it only for test files whose name contains "dynamodb-local".',
    );
  }
  if ('error' in provision) throw new Error(provision.error);
  return provision.endpoint;
}
