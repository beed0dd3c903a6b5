import type { ConnectedProvider } from '../core/calendar/provider-kind.js';
import { once } from '../core/once.js';
import type { BookingWorkflow, DocumentStore, Logger } from '../core/ports/index.js';
import { systemClock } from '../core/ports/index.js';
import { kmsEnvelope } from './aws-kms-envelope.js';
import { awsMemoryBlobs } from './aws-memory-blobs.js';
import { awsTableStore } from './aws-table-store.js';
import type { Platform } from './compose.js';
import { embedderFrom } from './embedder-config.js';
import { type Environment, requireSettings } from './environment.js';
import { lazyEnvelope } from './lazy-envelope.js';
import { memorySyncFrom } from './memory-sync-config.js';
import { nodeRandom } from './node-random.js';
import type { ProviderFactory } from './provider-resolver.js';
import { VERSION } from './version.js';

/**
 * What every AWS runtime (each function, `meridian --aws`) builds its graph on: the table,
 * KMS-backed secrets, the system clock and the settings the stack put in the environment. Cheap:
 * every client here is made on first use, so a function's cold start pays for none it does not
 * call. The table is required (named when missing); each function requires what else it uses.
 *
 * @example
 * const platform = awsPlatform(processEnvironment(), logger);
 * const part = wireParts(platform);
 */
export function awsPlatform(
  environment: Environment,
  logger: Logger,
  /** @default - none: book_slot answers that booking is not configured */
  booking?: BookingWorkflow,
): Platform & { store: DocumentStore } {
  const { tableName } = requireSettings(environment, ['tableName']);
  const { dataKeyArn } = environment;
  const memoryBlobs = awsMemoryBlobs(environment.memoryBucketName);
  const memorySync = memorySyncFrom(environment.memorySync);
  const embedder = embedderFrom(environment.embeddings);
  return {
    store: awsTableStore(tableName, environment.awsConnection),
    // Where the stack sets no key (the memory compression function) a secret is never read.
    encryption: dataKeyArn
      ? kmsEnvelope(dataKeyArn)
      : lazyEnvelope(async () => requireSettings(environment, ['dataKeyArn']) as never),
    clock: systemClock,
    random: nodeRandom,
    logger,
    version: VERSION,
    defaultTimezone: environment.timezone,
    factories: lazyFactories(environment),
    lockTtlSeconds: environment.lockTtlSeconds,
    ...(environment.memoryItemsCap === undefined ? {} : { memoryItemsCap: environment.memoryItemsCap }),
    // No projectFolders: a deployed function cannot read the agent's disk.
    ...(memoryBlobs ? { memoryBlobs } : {}),
    ...(memorySync ? { memorySync } : {}),
    ...(embedder ? { embedder } : {}),
    ...(booking ? { booking: () => booking } : {}),
  };
}

/**
 * The provider factories, loaded with the first connected calendar a call reaches: a function
 * whose calls meet only native calendars (or none) never loads them or the secrets' schemas.
 */
function lazyFactories(environment: Environment): Platform['factories'] {
  const load = once(async () => (await import('./provider-factories.js')).providerFactories(environment));
  const lazy =
    (provider: ConnectedProvider): ProviderFactory =>
    async (connection, secret) =>
      (await load())[provider]!(connection, secret);
  return {
    caldav: lazy('caldav'),
    ...(environment.google ? { google: lazy('google') } : {}),
    ...(environment.outlook ? { outlook: lazy('outlook') } : {}),
  };
}
