import type { Logger } from '../core/ports/index.js';
import type { SyncDeps } from '../core/shadow/sync-types.js';
import { awsPlatform } from './aws-platform.js';
import { composeCalendars } from './compose-calendars.js';

/**
 * The object graph of the scheduled sync job: calendars through their providers and the table,
 * nothing more (the sync never books, holds or serves MCP, and its bundle carries none of that).
 *
 * @example
 * const deps = createAwsSyncDeps(process.env, logger);
 * await syncAndLog(deps, logger);
 */
export function createAwsSyncDeps(env: NodeJS.ProcessEnv, logger: Logger): SyncDeps {
  const platform = awsPlatform(env, logger);
  const { registry, calendars } = composeCalendars(platform);
  const { store, clock, random, defaultTimezone } = platform;
  return { store, registry, calendars, clock, random, defaultTimezone };
}
