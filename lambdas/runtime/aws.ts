import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDbDocumentStore } from '../adapters/dynamodb/dynamodb-document-store.js';
import { SfnBookingWorkflow } from '../adapters/workflow/sfn-booking-workflow.js';
import { systemClock } from '../core/ports.js';
import { requireZone } from '../core/time/zones.js';
import type { Logger } from '../mcp/deps.js';
import { lockTtlSecondsFrom } from './booking-config.js';
import { composeDeps, type Platform } from './compose.js';
import { lazyEnvelope } from './lazy-envelope.js';
import { nodeRandom } from './node-random.js';
import { providerFactories } from './provider-factories.js';
import { VERSION } from './version.js';

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value)
    throw new Error(
      `${name} is not set: the CDK stack sets it on its functions; for \`meridian --aws\` take it from the stack outputs.`,
    );
  return value;
}

/** Environment variable carrying the booking state machine's ARN (set on the MCP function). */
export const BOOKING_STATE_MACHINE_ARN_ENV = 'MERIDIAN_BOOKING_STATE_MACHINE_ARN';

/**
 * Composition root of the AWS runtime: built once per Lambda container, outside the handler, so
 * warm invocations reuse clients and cached provider tokens. Fails the cold start loudly on bad
 * configuration rather than on the first tool call. book_slot starts the Express state machine
 * named by MERIDIAN_BOOKING_STATE_MACHINE_ARN.
 */
export function createAwsDeps(env: NodeJS.ProcessEnv, logger: Logger) {
  const stateMachineArn = required(env, BOOKING_STATE_MACHINE_ARN_ENV);
  const client = new SFNClient({});
  return composeDeps({
    ...awsPlatform(env, logger),
    booking: () => new SfnBookingWorkflow({ client, stateMachineArn }),
  });
}

/**
 * The deployed table and key administered from a workstation with the caller's AWS credentials:
 * `meridian --aws keys|grants|calendars|connect|sync`, with MERIDIAN_TABLE_NAME and
 * MERIDIAN_DATA_KEY_ARN from the data stack's outputs. No booking workflow: the CLI never books.
 */
export function createAwsAdminRuntime(env: NodeJS.ProcessEnv, logger: Logger) {
  return { ...composeDeps(awsPlatform(env, logger)), close: async () => undefined };
}

/**
 * The object graph of the scheduled sync job: everything but a booking workflow (the sync never
 * books, and its function is not given the state machine).
 */
export function createAwsSyncDeps(env: NodeJS.ProcessEnv, logger: Logger) {
  return composeDeps(awsPlatform(env, logger));
}

/**
 * The booking steps as the step Lambdas run them (lambdas/handlers/booking-steps.ts): the same
 * object graph, without a workflow of its own (a step never starts a booking).
 */
export function createAwsBookingSteps(env: NodeJS.ProcessEnv, logger: Logger) {
  return composeDeps(awsPlatform(env, logger)).bookingSteps;
}

function awsPlatform(env: NodeJS.ProcessEnv, logger: Logger): Platform {
  const timezone = env.MERIDIAN_TIMEZONE?.trim() || undefined;
  if (timezone !== undefined) requireZone(timezone, 'MERIDIAN_TIMEZONE');
  const dataKeyArn = required(env, 'MERIDIAN_DATA_KEY_ARN');
  return {
    store: new DynamoDbDocumentStore({
      client: new DynamoDBClient({}),
      tableName: required(env, 'MERIDIAN_TABLE_NAME'),
    }),
    // The Encryption SDK (and its KMS client) loads on the first secret read, not at cold start.
    encryption: lazyEnvelope(async () => {
      const { EncryptionSdkEnvelope, kmsKeyring } = await import(
        '../adapters/encryption/encryption-sdk-envelope.js'
      );
      return new EncryptionSdkEnvelope(kmsKeyring(dataKeyArn));
    }),
    clock: systemClock,
    random: nodeRandom,
    logger,
    version: VERSION,
    defaultTimezone: timezone,
    factories: providerFactories(env),
    lockTtlSeconds: lockTtlSecondsFrom(env),
  };
}
