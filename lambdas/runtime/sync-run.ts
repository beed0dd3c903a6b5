import type { Logger } from '../core/ports/index.js';
import { type SyncAllOptions, type SyncSummary, syncAll } from '../core/shadow/sync-all.js';
import type { SyncDeps } from '../core/shadow/sync-types.js';

/**
 * One unattended sync run, as the `serve` timer and the sync Lambda do it: every connected
 * calendar, the totals logged, and each failing calendar logged with its reason.
 *
 * @example
 * const summary = await syncAndLog(runtime, runtime.logger);
 */
export async function syncAndLog(
  deps: SyncDeps,
  logger: Logger,
  options: SyncAllOptions = {},
): Promise<SyncSummary> {
  const summary = await syncAll(deps, options);
  const { calendars, ...totals } = summary;
  for (const failed of calendars.filter((c) => c.status === 'failed')) {
    logger.warn('sync: calendar failed', { calendar_id: failed.calendar_id, error: failed.error });
  }
  logger.info('sync: run finished', totals);
  return summary;
}
