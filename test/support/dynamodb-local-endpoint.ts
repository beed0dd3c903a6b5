import { inject } from 'vitest';

/**
 * The endpoint of the run's DynamoDB Local, started by test/support/global-setup.ts. Throws (so
 * the test fails) when it could not start; a suite skips for missing Java only through
 * `needs(JAVA)` (test/support/system-parts.ts), which CI=true turns into a failure.
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
