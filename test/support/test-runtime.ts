import { randomBytes } from 'node:crypto';
import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../../lambdas/adapters/dynamodb/local-dynamodb.js';
import {
  EncryptionSdkEnvelope,
  rawAesKeyring,
} from '../../lambdas/adapters/encryption/encryption-sdk-envelope.js';
import { LocalBookingWorkflow } from '../../lambdas/adapters/workflow/local-booking-workflow.js';
import { type Clock, systemClock } from '../../lambdas/core/ports/index.js';
import { composeDeps, type Platform } from '../../lambdas/runtime/compose.js';
import { nodeRandom } from '../../lambdas/runtime/node-random.js';
import { withAllTools } from '../../lambdas/runtime/with-all-tools.js';

export const TEST_TABLE = 'meridian-test';

const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The real object graph (composeDeps) on a fresh in-memory dynalite, for tests above the adapter
 * level: tools, HTTP, handlers. Pass `endpoint` to share a running DynamoDB (e.g. DynamoDB Local).
 * Booking runs booking.asl.json locally (as embedded) with retry pauses of 0; pass `booking` to
 * wrap or replace the steps (fault injection), `lockTtlSeconds` for another hold lifetime.
 */
export async function startTestRuntime(
  options: {
    clock?: Clock;
    defaultTimezone?: string;
    endpoint?: string;
    tableName?: string;
    factories?: Platform['factories'];
    booking?: Platform['booking'];
    lockTtlSeconds?: number;
  } = {},
) {
  const dynalite = options.endpoint ? undefined : await startDynalite();
  const endpoint = options.endpoint ?? dynalite!.endpoint;
  const client = createLocalDynamoDbClient(endpoint);
  const tableName = options.tableName ?? `${TEST_TABLE}-${randomBytes(4).toString('hex')}`;
  await ensureTable(client, tableName);
  const deps = composeDeps({
    store: new DynamoDbDocumentStore({ client, tableName }),
    encryption: new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32)))),
    clock: options.clock ?? systemClock,
    random: nodeRandom,
    logger: silentLogger,
    version: 'test',
    defaultTimezone: options.defaultTimezone,
    factories: options.factories ?? {},
    booking: options.booking ?? ((steps) => new LocalBookingWorkflow({ steps, retryDelayMs: 0 })),
    ...(options.lockTtlSeconds === undefined ? {} : { lockTtlSeconds: options.lockTtlSeconds }),
  });
  return withAllTools({
    ...deps,
    endpoint,
    tableName,
    /** A new API key's token; `toolsets` sets its default toolsets. */
    async newKey(
      label = 'test',
      options: { toolsets?: string[] } = {},
    ): Promise<{ token: string; keyId: string }> {
      const key = await deps.access.createKey(label, options);
      return { token: key.token, keyId: key.key_id };
    },
    async close() {
      client.destroy();
      await dynalite?.close();
    },
  });
}

export type TestRuntime = Awaited<ReturnType<typeof startTestRuntime>>;
