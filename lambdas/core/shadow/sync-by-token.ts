import type { CalendarEvent, EventTime } from '../calendar/event.js';
import { parseInstanceId } from '../calendar/event-times.js';
import { screenProviderEvent } from '../firewall/untrusted-text.js';
import type { CalendarRef, TokenSyncSource } from '../ports/index.js';
import type { SyncState } from './shadow-items.js';
import { applyChanges, replaceAll } from './shadow-writes.js';
import type { SourceContext, SourceOutcome } from './sync-types.js';
import { keepInWindow, windowOf } from './sync-window.js';

/**
 * Syncs a calendar whose provider lists changes by token (Google): incremental with the stored
 * token, else (no token, window moved on, or the provider answered 410 Gone) the whole calendar,
 * which then replaces the shadow.
 *
 * @example
 * const outcome = await syncByToken(googleProvider, ref, context);
 */
export async function syncByToken(
  source: TokenSyncSource,
  calendar: CalendarRef,
  context: SourceContext,
  provider: SyncState['provider'] = 'google',
): Promise<SourceOutcome> {
  // The fresh window goes along for providers whose token is bound to one (Outlook's delta).
  const result = await source.syncEvents(calendar, context.previous?.sync_token, context.fresh);
  const previous = result.full_resync ? undefined : context.previous;
  const window = previous ? windowOf(previous) : context.fresh;

  const removed = new Set(result.deleted_ids.filter((id) => !parseInstanceId(id)));
  // A cancelled occurrence hides one instance of a series: stored as a cancelled override.
  // Occurrences of a series deleted in the same change set go with it.
  const tombstones = result.deleted_ids.flatMap((id) => {
    const instance = parseInstanceId(id);
    return instance && !removed.has(instance.masterId)
      ? [tombstone(id, instance.masterId, instance.key, calendar.calendar_id)]
      : [];
  });
  const candidates = [...result.events, ...tombstones];
  const keep = new Set(candidates.filter((event) => keepInWindow(event, window, context.zone)));
  // Written by any client of the provider, never through the write-time firewall: flagged on every sync.
  const kept = [...keep].map(screenProviderEvent);
  const left = candidates.filter((event) => !keep.has(event)).map((event) => event.id);

  const counts = previous
    ? await applyChanges(
        context.store,
        context.calendarId,
        {
          upserts: kept,
          // An event that moved out of the window leaves the shadow like a deleted one.
          removals: [...removed, ...left],
        },
        { onProgress: context.onApply },
      )
    : await replaceAll(context.store, context.calendarId, kept, {
        keepBookedSince: context.startedAt,
        onProgress: context.onApply,
      });
  return {
    mode: previous ? 'incremental' : 'full',
    counts,
    state: {
      provider,
      sync_token: result.next_sync_token,
      window_from: new Date(window.fromMs).toISOString(),
      window_to: new Date(window.toMs).toISOString(),
    },
  };
}

/** The cancelled override an instance id stands for; its original start comes from the id. */
function tombstone(id: string, masterId: string, key: string, calendarId: string): CalendarEvent {
  const original: EventTime =
    key.length === 8
      ? { date: `${key.slice(0, 4)}-${key.slice(4, 6)}-${key.slice(6, 8)}` }
      : {
          date_time: `${key.slice(0, 4)}-${key.slice(4, 6)}-${key.slice(6, 8)}T${key.slice(9, 11)}:${key.slice(11, 13)}:${key.slice(13, 15)}+00:00`,
        };
  return {
    id,
    calendar_id: calendarId,
    summary: '',
    start: original,
    end: original,
    status: 'cancelled',
    transparency: 'transparent',
    visibility: 'default',
    attendees: [],
    recurring_event_id: masterId,
    original_start: original,
    etag: '',
  };
}
