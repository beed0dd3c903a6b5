import { nodeGzip } from '../adapters/compression/node-gzip.js';
import type { IdleSweepDeps } from '../core/memory/contexts/idle-compression-sweep.js';
import { MemoryStore } from '../core/memory/store/memory-store.js';
import { systemClock } from '../core/ports/index.js';
import { requiredEnv } from './aws-environment.js';
import { awsMemoryBlobs } from './aws-memory-blobs.js';
import { awsTableStore } from './aws-table-store.js';
import { MEMORY_BUCKET_NAME_ENV } from './environment-names.js';
import { nodeRandom } from './node-random.js';

/**
 * The object graph of the scheduled memory compression: the table and the memory bucket (a
 * compressed body over the size threshold goes there; unlisted snapshots are removed from it),
 * nothing of calendars, secrets or MCP.
 *
 * @example
 * const run = idleCompressionRuns(createAwsIdleSweepDeps(process.env), logger);
 */
export function createAwsIdleSweepDeps(env: NodeJS.ProcessEnv): IdleSweepDeps {
  requiredEnv(env, MEMORY_BUCKET_NAME_ENV);
  const store = awsTableStore(env);
  const blobs = awsMemoryBlobs(env)!;
  const memory = new MemoryStore({
    store,
    blobs,
    clock: systemClock,
    random: nodeRandom,
    compressor: nodeGzip,
  });
  return { store, memory, blobs, clock: systemClock };
}
