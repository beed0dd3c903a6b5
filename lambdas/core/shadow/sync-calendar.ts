import type { CalendarRecord } from '../calendar/calendar-registry.js';
import { calendarZone } from '../calendar/calendar-zone.js';
import { DomainError, isDomainError } from '../errors.js';
import { isCollectionSyncSource, isTokenSyncSource } from '../ports/index.js';
import type { SyncState } from './shadow-items.js';
import { ShadowStore } from './shadow-store.js';
import { syncByCollection } from './sync-by-collection.js';
import { syncByToken } from './sync-by-token.js';
import type {
  CalendarSyncResult,
  SourceContext,
  SourceOutcome,
  SyncDeps,
  SyncOptions,
  SyncPhase,
} from './sync-types.js';
import { DEFAULT_SYNC_WINDOW, freshWindow, fullSyncReason } from './sync-window.js';

/** As long as the sync Lambda may run: a crashed run's lease lapses by the next schedule or so. */
export const DEFAULT_LEASE_MS = 5 * 60_000;

/**
 * Brings one connected calendar's shadow up to date: a full sync of the window the first time
 * (or when the window moved on, or the provider lost the token), incremental afterwards. Never
 * throws for a calendar's own failure: it is recorded in the calendar's sync state (`last_error`)
 * and returned, so that one failing calendar never stops the others.
 *
 * @example
 * const result = await syncCalendar(deps, await deps.registry.requireCalendar('google/c1/alice@example.com'));
 * // { calendar_id: 'google/c1/alice@example.com', status: 'synced', mode: 'incremental', upserted: 2, deleted: 1, … }
 */
export async function syncCalendar(
  deps: SyncDeps,
  record: CalendarRecord,
  options: SyncOptions = {},
): Promise<CalendarSyncResult> {
  const calendarId = record.calendar_id;
  const report = (phase: SyncPhase, done = 0, total = 0) =>
    options.onProgress?.({ calendar_id: calendarId, phase, done, total });
  const result = (status: CalendarSyncResult['status'], extra: Partial<CalendarSyncResult> = {}) => ({
    calendar_id: calendarId,
    status,
    upserted: 0,
    deleted: 0,
    ...extra,
  });
  if (record.provider === 'native') {
    report('skipped');
    return result('skipped', { reason: 'native calendar: its events are in the table already' });
  }

  const shadow = new ShadowStore(deps.store);
  const owner = deps.random.uuid();
  const started = deps.clock.now();
  const startedAt = started.toISOString();
  let leased: boolean;
  try {
    leased = await shadow.takeLease(
      calendarId,
      owner,
      started.getTime(),
      options.leaseMs ?? DEFAULT_LEASE_MS,
    );
  } catch (error) {
    report('failed');
    return result('failed', { error: describeFailure(error) });
  }
  if (!leased) {
    report('skipped');
    return result('skipped', { reason: 'another sync of this calendar is running' });
  }
  const window = options.window ?? DEFAULT_SYNC_WINDOW;
  let previous: SyncState | undefined;
  try {
    previous = await shadow.readState(calendarId);
    const provider = record.provider;
    const reason = options.full ? 'asked for' : fullSyncReason(previous, provider, started.getTime(), window);
    report('fetching');
    const outcome = await runSource(deps, record, {
      store: deps.store,
      calendarId,
      previous: reason ? undefined : previous,
      fresh: freshWindow(started.getTime(), window),
      zone: calendarZone(record, deps.defaultTimezone),
      startedAt,
      onApply: (done, total) => report('applying', done, total),
    });
    await shadow.writeState(calendarId, {
      ...outcome.state,
      synced_at: startedAt,
      full_synced_at: outcome.mode === 'full' ? startedAt : previous?.full_synced_at,
      last_attempt_at: startedAt,
      last_mode: outcome.mode,
      last_counts: outcome.counts,
    });
    const total = outcome.counts.upserted + outcome.counts.deleted;
    report(outcome.mode === 'unchanged' ? 'unchanged' : 'done', total, total);
    return outcome.mode === 'unchanged'
      ? result('unchanged', { synced_at: startedAt })
      : result('synced', {
          mode: outcome.mode,
          ...outcome.counts,
          synced_at: startedAt,
          ...(outcome.mode === 'full' ? { reason: reason ?? 'the provider expired the sync token' } : {}),
        });
  } catch (error) {
    const failure = describeFailure(error);
    // Best effort: the failure is returned either way.
    await shadow
      .writeState(calendarId, {
        ...(previous ?? placeholderState(record, started.getTime(), options)),
        last_attempt_at: startedAt,
        last_error: failure,
      })
      .catch(() => undefined);
    report('failed');
    return result('failed', { error: failure });
  } finally {
    await shadow.releaseLease(calendarId, owner).catch(() => undefined);
  }
}

async function runSource(
  deps: SyncDeps,
  record: CalendarRecord,
  context: SourceContext,
): Promise<SourceOutcome> {
  const { provider, ref } = await deps.calendars.providerFor(record);
  if (isTokenSyncSource(provider)) {
    return syncByToken(provider, ref, context, record.provider === 'outlook' ? 'outlook' : 'google');
  }
  if (isCollectionSyncSource(provider)) return syncByCollection(provider, ref, context);
  throw new DomainError(
    'PROVIDER_ERROR',
    `The ${record.provider} adapter offers no way to list changes, so "${record.calendar_id}" cannot be synced.`,
  );
}

/** The state of a calendar whose first sync failed: a window, no synced_at (so nothing is "covered"). */
function placeholderState(record: CalendarRecord, nowMs: number, options: SyncOptions): SyncState {
  const window = freshWindow(nowMs, options.window ?? DEFAULT_SYNC_WINDOW);
  return {
    provider: record.provider === 'native' ? 'caldav' : record.provider,
    window_from: new Date(window.fromMs).toISOString(),
    window_to: new Date(window.toMs).toISOString(),
    last_attempt_at: new Date(nowMs).toISOString(),
  };
}

/** A failure as the summary and the sync state show it: the domain code, else INTERNAL. */
function describeFailure(error: unknown): { code: string; message: string } {
  if (isDomainError(error)) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
