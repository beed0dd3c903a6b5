import type { CalendarEvent } from '../calendar/event.js';
import { LONG_EVENT_MS, sortableUtc } from '../calendar/native/native-items.js';
import { ConditionFailedError, type DocumentStore } from '../ports/index.js';
import { SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';
import { eventOf, ResourceRecord, SyncState, shadowPartition } from './shadow-items.js';

/** What a window read returns, by how the events are stored. */
export interface ShadowEntries {
  /** One-off events (short ones near the window, every long one). */
  singles: CalendarEvent[];
  series: CalendarEvent[];
  overrides: CalendarEvent[];
}

/**
 * Reach of a window read beyond the asked range. Short events are keyed by their start as UTC
 * (an all-day date as UTC midnight), and a day-long event placed in a zone up to 14 h from UTC
 * can start up to a day and 14 h before or after its key: two days covers both. Callers filter
 * exactly afterwards.
 */
export const READ_SLACK_MS = 2 * LONG_EVENT_MS;

/** True when the last successful sync covered all of `[fromMs, toMs)`: the shadow is then a whole view of it. */
export function syncCovers(state: SyncState | undefined, fromMs: number, toMs: number): boolean {
  return (
    state?.synced_at !== undefined &&
    Date.parse(state.window_from) <= fromMs &&
    toMs <= Date.parse(state.window_to)
  );
}

/**
 * The shadow's state and reads: sync state, the per-calendar sync lease, and window reads, all
 * strongly consistent. Writes of events are in shadow-writes.ts.
 */
export class ShadowStore {
  constructor(readonly store: DocumentStore) {}

  async readState(calendarId: string): Promise<SyncState | undefined> {
    const item = await this.store.get(
      { pk: shadowPartition(calendarId), sk: SK.shadow.syncState },
      { consistent: true },
    );
    return item ? SyncState.parse(item) : undefined;
  }

  async writeState(calendarId: string, state: SyncState): Promise<void> {
    await this.store.put({
      pk: shadowPartition(calendarId),
      sk: SK.shadow.syncState,
      ...SyncState.parse(state),
    });
  }

  /**
   * Takes the calendar's sync lease for `durationMs`, unless another run holds an unexpired one.
   * Two runs applying the same calendar at once (the scheduled Lambda and a CLI run, or a run
   * that outlived its schedule) could write an older change set after a newer one and then
   * store a token that skips the newer one for good; the lease makes them take turns.
   */
  async takeLease(calendarId: string, owner: string, nowMs: number, durationMs: number): Promise<boolean> {
    try {
      await this.store.put(
        {
          pk: shadowPartition(calendarId),
          sk: SK.shadow.lease,
          owner,
          expires_at: nowMs + durationMs,
          // Garbage collection only; expiry is checked in the condition.
          ttl: Math.ceil((nowMs + durationMs) / 1000) + 3600,
        },
        {
          condition: {
            op: 'or',
            conditions: [{ op: 'not_exists' }, { op: 'lt', attribute: 'expires_at', value: nowMs }],
          },
        },
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  }

  /** Releases the lease if this owner still holds it (an expired one may have passed to another run). */
  async releaseLease(calendarId: string, owner: string): Promise<void> {
    try {
      await this.store.delete(
        { pk: shadowPartition(calendarId), sk: SK.shadow.lease },
        { condition: { op: 'eq', attribute: 'owner', value: owner } },
      );
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }

  /**
   * The stored events that may overlap `[fromMs, toMs)`: short one-offs from a key range widened
   * by {@link READ_SLACK_MS}, and every long event, series master and override (few per calendar).
   */
  async readWindow(calendarId: string, fromMs: number, toMs: number): Promise<ShadowEntries> {
    const partition = shadowPartition(calendarId);
    const byPrefix = (prefix: string) =>
      queryAll(this.store, { partition, beginsWith: prefix, consistent: true });
    const [short, long, series, overrides] = await Promise.all([
      queryAll(this.store, {
        partition,
        between: {
          from: `${SK.shadow.shortEventPrefix}${sortableUtc(fromMs - READ_SLACK_MS)}`,
          to: `${SK.shadow.shortEventPrefix}${sortableUtc(toMs + READ_SLACK_MS)}~`,
        },
        consistent: true,
      }),
      byPrefix(SK.shadow.longEventPrefix),
      byPrefix(SK.shadow.seriesPrefix),
      byPrefix(SK.shadow.overridePrefix),
    ]);
    return {
      singles: [...short, ...long].map(eventOf),
      series: series.map(eventOf),
      overrides: overrides.map(eventOf),
    };
  }

  /** CalDAV bookkeeping: every resource last synced, by href. */
  async listResources(calendarId: string): Promise<Map<string, ResourceRecord>> {
    const items = await queryAll(this.store, {
      partition: shadowPartition(calendarId),
      beginsWith: SK.shadow.resourcePrefix,
      consistent: true,
    });
    return new Map(items.map((item) => ResourceRecord.parse(item)).map((r) => [r.href, r]));
  }
}
