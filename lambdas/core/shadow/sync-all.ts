import { mapWithConcurrency } from '../concurrency.js';
import { DomainError } from '../errors.js';
import type { CalendarSyncResult, SyncDeps, SyncOptions } from './sync-types.js';

export interface SyncAllOptions extends SyncOptions {
  /** Only these calendars (a native one is reported as skipped). @default every connected calendar */
  calendarIds?: readonly string[];
  /** Calendars synced at once. @default 4 */
  concurrency?: number;
  /** Asked before each calendar starts; true leaves the rest for the next run (a Lambda near its timeout). */
  shouldStop?: () => boolean;
}

export interface SyncSummary {
  calendars: CalendarSyncResult[];
  synced: number;
  unchanged: number;
  skipped: number;
  failed: number;
  upserted: number;
  deleted: number;
  /** Native calendars left out: their events live in the table and need no sync. */
  native: number;
}

/** Enough to overlap provider round trips, few enough to stay clear of provider rate limits. */
export const DEFAULT_SYNC_CONCURRENCY = 4;

/**
 * Syncs every connected calendar (or the ones named), a few at a time, reporting progress per
 * calendar. A failing calendar is reported in the summary and never stops the others.
 *
 * @example
 * const summary = await syncAll(runtime, { onProgress: (p) => console.log(p.calendar_id, p.phase) });
 * if (summary.failed > 0) process.exitCode = 1;
 */
export async function syncAll(deps: SyncDeps, options: SyncAllOptions = {}): Promise<SyncSummary> {
  const records = await deps.registry.listCalendars();
  let chosen = records.filter((r) => r.provider !== 'native');
  if (options.calendarIds) {
    const byId = new Map(records.map((r) => [r.calendar_id, r]));
    const unknown = options.calendarIds.filter((id) => !byId.has(id));
    if (unknown.length > 0) {
      throw new DomainError(
        'NOT_FOUND',
        `No calendar ${unknown.map((id) => `"${id}"`).join(', ')}: \`meridian calendars list\` shows the ids.`,
        { calendar_ids: unknown },
      );
    }
    chosen = options.calendarIds.map((id) => byId.get(id)!);
  }
  for (const record of chosen) {
    options.onProgress?.({ calendar_id: record.calendar_id, phase: 'waiting', done: 0, total: 0 });
  }
  // Loaded only when there is a calendar to sync: a run over native calendars alone (the sync
  // function's cold start on such a deployment) loads no provider sync or shadow writes.
  const { syncCalendar } =
    chosen.length > 0 ? await import('./sync-calendar.js') : { syncCalendar: undefined };
  const results = await mapWithConcurrency(
    chosen,
    options.concurrency ?? DEFAULT_SYNC_CONCURRENCY,
    (record) => {
      if (options.shouldStop?.()) {
        options.onProgress?.({ calendar_id: record.calendar_id, phase: 'skipped', done: 0, total: 0 });
        return Promise.resolve<CalendarSyncResult>({
          calendar_id: record.calendar_id,
          status: 'skipped',
          reason: 'out of time: left for the next run',
          upserted: 0,
          deleted: 0,
        });
      }
      return syncCalendar!(deps, record, options);
    },
  );
  const count = (status: CalendarSyncResult['status']) => results.filter((r) => r.status === status).length;
  return {
    calendars: results,
    synced: count('synced'),
    unchanged: count('unchanged'),
    skipped: count('skipped'),
    failed: count('failed'),
    upserted: results.reduce((sum, r) => sum + r.upserted, 0),
    deleted: results.reduce((sum, r) => sum + r.deleted, 0),
    native: options.calendarIds ? 0 : records.length - chosen.length,
  };
}
