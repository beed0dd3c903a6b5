import type { IdleSweepDeps } from '../core/memory/contexts/idle-compression-sweep.js';
import type { Logger } from '../core/ports/index.js';
import { awsPlatform } from './aws-platform.js';
import { type Environment, requireSettings } from './environment.js';
import { wireParts } from './wiring.js';

/**
 * The object graph of the scheduled memory compression, from the wiring table: the table, the
 * memory bucket (a compressed body over the size threshold goes there; unlisted snapshots are
 * removed from it) and the memory store, nothing of calendars or MCP. Configuration is checked at
 * once; the store is built on the first run.
 *
 * @example
 * const deps = createAwsIdleSweepDeps(processEnvironment(), logger);
 * const run = idleCompressionRuns(await deps(), logger);
 */
export function createAwsIdleSweepDeps(
  environment: Environment,
  logger: Logger,
): () => Promise<IdleSweepDeps> {
  requireSettings(environment, ['memoryBucketName']);
  const platform = awsPlatform(environment, logger);
  const part = wireParts(platform);
  return async () => {
    const [memory, blobs] = await Promise.all([part('memoryStore'), part('memoryBlobs')]);
    return { store: platform.store, memory, blobs, clock: platform.clock };
  };
}
