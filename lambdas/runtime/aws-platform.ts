import type { DocumentStore, Logger } from '../core/ports/index.js';
import { systemClock } from '../core/ports/index.js';
import { requireZone } from '../core/time/zones.js';
import { configuredTimezone, requiredEnv } from './aws-environment.js';
import { kmsEnvelope } from './aws-kms-envelope.js';
import { awsMemoryBlobs } from './aws-memory-blobs.js';
import { awsTableStore } from './aws-table-store.js';
import { lockTtlSecondsFrom } from './booking-config.js';
import { memoryItemsCapFrom } from './call-limits-config.js';
import type { Platform } from './compose.js';
import { embedderFrom } from './embedder-config.js';
import { DATA_KEY_ARN_ENV, TIMEZONE_ENV } from './environment-names.js';
import { memorySyncFrom } from './memory-sync-config.js';
import { nodeRandom } from './node-random.js';
import { providerFactories } from './provider-factories.js';
import { VERSION } from './version.js';

/** Clients a caller already built and wants the object graph to reuse. */
export interface SharedClients {
  /** The document store on the deployed table (the MCP function authenticates with it first). */
  store?: DocumentStore;
}

/**
 * What every AWS composition shares: the table, KMS-backed secrets, the system clock and the
 * configuration the stack put in the environment. Fails loudly on bad configuration.
 */
export function awsPlatform(env: NodeJS.ProcessEnv, logger: Logger, shared: SharedClients = {}): Platform {
  const timezone = configuredTimezone(env);
  if (timezone !== undefined) requireZone(timezone, TIMEZONE_ENV);
  const dataKeyArn = requiredEnv(env, DATA_KEY_ARN_ENV);
  const memoryBlobs = awsMemoryBlobs(env);
  const memorySync = memorySyncFrom(env);
  const embedder = embedderFrom(env);
  return {
    store: shared.store ?? awsTableStore(env),
    encryption: kmsEnvelope(dataKeyArn),
    clock: systemClock,
    random: nodeRandom,
    logger,
    version: VERSION,
    defaultTimezone: timezone,
    factories: providerFactories(env),
    lockTtlSeconds: lockTtlSecondsFrom(env),
    memoryItemsCap: memoryItemsCapFrom(env),
    // No projectFolders: a deployed function cannot read the agent's disk.
    ...(memoryBlobs ? { memoryBlobs } : {}),
    ...(memorySync ? { memorySync } : {}),
    ...(embedder ? { embedder } : {}),
  };
}
