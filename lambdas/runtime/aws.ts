import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDbDocumentStore } from '../adapters/dynamodb/dynamodb-document-store.js';
import { SfnBookingWorkflow } from '../adapters/workflow/sfn-booking-workflow.js';
import { type DocumentStore, type Logger, systemClock } from '../core/ports/index.js';
import { requireZone } from '../core/time/zones.js';
import { configuredTimezone, requiredEnv } from './aws-environment.js';
import { lockTtlSecondsFrom } from './booking-config.js';
import { composeDeps, type Platform } from './compose.js';
import {
  BOOKING_STATE_MACHINE_ARN_ENV,
  DATA_KEY_ARN_ENV,
  TABLE_NAME_ENV,
  TIMEZONE_ENV,
} from './environment-names.js';
import { lazyEnvelope } from './lazy-envelope.js';
import { nodeRandom } from './node-random.js';
import { providerFactories } from './provider-factories.js';
import { VERSION } from './version.js';

/**
 * Composition root of the AWS runtime: built once per Lambda container, outside the handler, so
 * warm invocations reuse clients and cached provider tokens. Fails the cold start loudly on bad
 * configuration rather than on the first tool call. book_slot starts the Express state machine
 * named by MERIDIAN_BOOKING_STATE_MACHINE_ARN.
 */
export function createAwsDeps(env: NodeJS.ProcessEnv, logger: Logger, shared: SharedClients = {}) {
  const stateMachineArn = requiredEnv(env, BOOKING_STATE_MACHINE_ARN_ENV);
  const client = new SFNClient({});
  return composeDeps({
    ...awsPlatform(env, logger, shared),
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

/** Clients a caller already built and wants the object graph to reuse. */
export interface SharedClients {
  /** The document store on the deployed table (the MCP function authenticates with it first). */
  store?: DocumentStore;
}

function awsPlatform(env: NodeJS.ProcessEnv, logger: Logger, shared: SharedClients = {}): Platform {
  const timezone = configuredTimezone(env);
  if (timezone !== undefined) requireZone(timezone, TIMEZONE_ENV);
  const dataKeyArn = requiredEnv(env, DATA_KEY_ARN_ENV);
  return {
    store:
      shared.store ??
      new DynamoDbDocumentStore({
        client: new DynamoDBClient({}),
        tableName: requiredEnv(env, TABLE_NAME_ENV),
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
