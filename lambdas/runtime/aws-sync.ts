import { CalendarRegistry } from '../core/calendar/calendar-registry.js';
import { systemClock } from '../core/ports/index.js';
import type { SyncDeps } from '../core/shadow/sync-types.js';
import { checkZone, configuredTimezone, requiredEnv } from './aws-environment.js';
import { lazyAwsCalendars } from './aws-lazy-calendars.js';
import { awsTableStore } from './aws-table-store.js';
import { DATA_KEY_ARN_ENV } from './environment-names.js';
import { nodeRandom } from './node-random.js';

/**
 * The object graph of the scheduled sync job: the registry on the table at once, each calendar's
 * provider on the first calendar synced (a run with no connected calendar loads none). Nothing
 * more: the sync never books, holds, checks grants or serves MCP, and its bundle carries none of
 * that. Configuration is checked at once, so a misconfigured function fails its cold start.
 *
 * @example
 * const deps = createAwsSyncDeps(process.env);
 * await syncAndLog(deps, logger);
 */
export function createAwsSyncDeps(env: NodeJS.ProcessEnv): SyncDeps {
  const defaultTimezone = configuredTimezone(env);
  if (defaultTimezone !== undefined) checkZone(defaultTimezone);
  requiredEnv(env, DATA_KEY_ARN_ENV);
  const store = awsTableStore(env);
  const { providerFor } = lazyAwsCalendars(env, store);
  return {
    store,
    registry: new CalendarRegistry(store),
    calendars: { providerFor },
    clock: systemClock,
    random: nodeRandom,
    defaultTimezone,
  };
}
