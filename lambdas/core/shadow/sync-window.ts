import type { CalendarEvent } from '../calendar/event.js';
import { eventTimeMs, overlapsWindow } from '../calendar/event-times.js';
import { expandSeries } from '../calendar/series.js';
import { isDomainError } from '../errors.js';
import { isMaster, type SyncState } from './shadow-items.js';
import { READ_SLACK_MS } from './shadow-store.js';

/** The time range a calendar's shadow covers, relative to the sync that sets it. */
export interface SyncWindowOptions {
  /** Days before now. @default 30 */
  backDays: number;
  /** Days after now that must always be covered. @default 180 */
  aheadDays: number;
  /**
   * Extra days a full sync covers beyond `aheadDays`. Incremental syncs do not move the window,
   * so once `now + aheadDays` passes its end a full sync runs again: about every `slackDays`.
   * @default 7
   */
  slackDays: number;
}

export const DEFAULT_SYNC_WINDOW: SyncWindowOptions = { backDays: 30, aheadDays: 180, slackDays: 7 };

export interface SyncWindow {
  fromMs: number;
  toMs: number;
}

const DAY_MS = 86_400_000;

/**
 * The window a full sync at `nowMs` covers.
 *
 * @example
 * freshWindow(Date.parse('2026-03-01T00:00:00Z'), DEFAULT_SYNC_WINDOW);
 * // { fromMs: <2026-01-30>, toMs: <2026-09-04> }
 */
export function freshWindow(nowMs: number, options: SyncWindowOptions): SyncWindow {
  return {
    fromMs: nowMs - options.backDays * DAY_MS,
    toMs: nowMs + (options.aheadDays + options.slackDays) * DAY_MS,
  };
}

export function windowOf(state: Pick<SyncState, 'window_from' | 'window_to'>): SyncWindow {
  return { fromMs: Date.parse(state.window_from), toMs: Date.parse(state.window_to) };
}

/** Why the next sync must be a full one, or undefined when an incremental one will do. */
export function fullSyncReason(
  state: SyncState | undefined,
  provider: SyncState['provider'],
  nowMs: number,
  options: SyncWindowOptions,
): string | undefined {
  if (!state?.synced_at) return 'never synced';
  if (state.provider !== provider) return 'provider changed';
  if (nowMs + options.aheadDays * DAY_MS > windowOf(state).toMs) return 'window moved on';
  return undefined;
}

/**
 * Whether an event belongs in a shadow covering `window` (widened by the read slack): one-off
 * events and occurrences that overlap it (an occurrence also when its original start is in it,
 * since it hides that instance), masters with an instance in it. A master whose rule cannot be
 * expanded is kept: busy reads still count its first occurrence.
 */
export function keepInWindow(event: CalendarEvent, window: SyncWindow, zone: string): boolean {
  const fromMs = window.fromMs - READ_SLACK_MS;
  const toMs = window.toMs + READ_SLACK_MS;
  if (isMaster(event)) {
    try {
      return expandSeries({ master: event, overrides: [] }, fromMs, toMs, zone).length > 0;
    } catch (error) {
      if (!isDomainError(error)) throw error;
      return true;
    }
  }
  if (overlapsWindow(event, fromMs, toMs)) return true;
  if (!event.original_start) return false;
  const original = eventTimeMs(event.original_start);
  return original >= fromMs && original < toMs;
}
