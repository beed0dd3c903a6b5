import type { CalendarRegistry } from '../calendar/calendar-registry.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import type { Clock, DocumentStore, RandomSource } from '../ports/index.js';
import type { SyncMode, SyncState } from './shadow-items.js';
import type { WriteCounts } from './shadow-writes.js';
import type { SyncWindow, SyncWindowOptions } from './sync-window.js';

/** What the sync engine needs; composeDeps' result has all of it. */
export interface SyncDeps {
  store: DocumentStore;
  registry: CalendarRegistry;
  /** Reaches each calendar's provider adapter (connection secrets are decrypted there). */
  calendars: Pick<CalendarService, 'providerFor'>;
  clock: Clock;
  /** Names the owner of a sync lease. */
  random: RandomSource;
  defaultTimezone: string | undefined;
}

/**
 * Where one calendar's sync is. `waiting` comes first for every calendar of a run (so a UI can
 * lay out its rows), then `fetching`, `applying` with done/total writes, and one terminal phase.
 */
export type SyncPhase = 'waiting' | 'fetching' | 'applying' | 'done' | 'unchanged' | 'skipped' | 'failed';

export interface SyncProgress {
  calendar_id: string;
  phase: SyncPhase;
  done: number;
  total: number;
}

export interface CalendarSyncResult {
  calendar_id: string;
  status: 'synced' | 'unchanged' | 'skipped' | 'failed';
  mode?: 'full' | 'incremental';
  upserted: number;
  deleted: number;
  /** The instant the shadow now reflects (the start of this sync). */
  synced_at?: string;
  /** Why a full sync ran, or why the calendar was skipped. */
  reason?: string;
  error?: { code: string; message: string };
}

export interface SyncOptions {
  /** @default DEFAULT_SYNC_WINDOW */
  window?: SyncWindowOptions;
  /** How long a run may hold a calendar's lease. @default 5 minutes (the sync Lambda's timeout) */
  leaseMs?: number;
  /** Full sync even when an incremental one would do. */
  full?: boolean;
  onProgress?: (progress: SyncProgress) => void;
}

/** What a source-specific sync hands back to syncCalendar, which stores it with synced_at. */
export interface SourceOutcome {
  mode: SyncMode;
  counts: WriteCounts;
  state: Pick<SyncState, 'provider' | 'sync_token' | 'ctag' | 'window_from' | 'window_to'>;
}

/** What a source-specific sync works with. */
export interface SourceContext {
  store: DocumentStore;
  calendarId: string;
  /** Undefined when a full sync is due. */
  previous: SyncState | undefined;
  /** The window a full sync would cover now. */
  fresh: SyncWindow;
  /** The calendar's zone, for expanding series when filtering by window. */
  zone: string;
  /** Start of this run: bookings recorded since are kept by a full replace. */
  startedAt: string;
  onApply: (done: number, total: number) => void;
}
