import type { Logger } from '../core/ports/index.js';
import type { SyncDeps } from '../core/shadow/sync-types.js';
import { awsPlatform } from './aws-platform.js';
import { type Environment, requireSettings } from './environment.js';
import { wireParts } from './wiring.js';

/**
 * The object graph of the scheduled sync job, from the wiring table: the registry on the first
 * run, each calendar's provider on the first calendar synced (a run with no connected calendar
 * loads none). Nothing more: the sync never books, holds, checks grants or serves MCP.
 * Configuration is checked at once, so a misconfigured function fails its cold start.
 *
 * @example
 * const deps = createAwsSyncDeps(processEnvironment(), logger);
 * await syncAndLog(await deps(), logger);
 */
export function createAwsSyncDeps(environment: Environment, logger: Logger): () => Promise<SyncDeps> {
  requireSettings(environment, ['dataKeyArn']);
  const platform = awsPlatform(environment, logger);
  const part = wireParts(platform);
  return async () => ({
    store: platform.store,
    registry: await part('registry'),
    calendars: { providerFor: async (record) => (await part('providers')).calendars.providerFor(record) },
    clock: platform.clock,
    random: platform.random,
    defaultTimezone: platform.defaultTimezone,
  });
}
