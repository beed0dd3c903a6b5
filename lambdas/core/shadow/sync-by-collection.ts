import type { CalendarEvent } from '../calendar/event.js';
import { screenProviderEvent } from '../firewall/untrusted-text.js';
import type { CalendarRef, CollectionSyncSource, SyncedResource } from '../ports/index.js';
import type { ResourceRecord } from './shadow-items.js';
import { ShadowStore } from './shadow-store.js';
import { applyChanges, replaceAll } from './shadow-writes.js';
import type { SourceContext, SourceOutcome } from './sync-types.js';
import { keepInWindow, type SyncWindow, windowOf } from './sync-window.js';

/**
 * Syncs a calendar whose provider reports change per collection and per resource (CalDAV):
 * an unchanged collection tag means nothing to do (one PROPFIND); otherwise the ETags of the
 * resources in the window are compared with those stored, and only new or changed resources are
 * fetched. A full sync (first time, or the window moved on) fetches every resource in the window
 * and replaces the shadow.
 *
 * The tag is read before the listing: a change that lands during the listing changes the tag
 * again, so the next run looks once more instead of skipping it.
 *
 * @example
 * const outcome = await syncByCollection(caldavProvider, ref, context);
 */
export async function syncByCollection(
  source: CollectionSyncSource,
  calendar: CalendarRef,
  context: SourceContext,
): Promise<SourceOutcome> {
  const { previous } = context;
  const ctag = await source.collectionTag(calendar);
  const window = previous ? windowOf(previous) : context.fresh;
  const state = {
    provider: 'caldav' as const,
    ...(ctag === undefined ? {} : { ctag }),
    window_from: new Date(window.fromMs).toISOString(),
    window_to: new Date(window.toMs).toISOString(),
  };
  if (previous && ctag !== undefined && ctag === previous.ctag) {
    return { mode: 'unchanged', counts: { upserted: 0, deleted: 0 }, state };
  }

  const tags = await source.resourceTags(calendar, window);
  if (!previous) {
    const fetched = await source.fetchResources(
      calendar,
      tags.map((t) => t.href),
    );
    const kept = fetched.map((resource) => keptEvents(resource, window, context.zone));
    const counts = await replaceAll(context.store, context.calendarId, kept.flat(), {
      resources: fetched.map((resource, i) => record(resource, kept[i]!)),
      keepBookedSince: context.startedAt,
      onProgress: context.onApply,
    });
    return { mode: 'full', counts, state };
  }

  const known = await new ShadowStore(context.store).listResources(context.calendarId);
  const changed = tags.filter((t) => known.get(t.href)?.etag !== t.etag).map((t) => t.href);
  const fetched = await source.fetchResources(calendar, changed);
  const present = new Set(tags.map((t) => t.href));
  const arrived = new Set(fetched.map((r) => r.href));
  // Gone from the window, or deleted between the listing and the fetch.
  const gone = [...known.keys()].filter(
    (href) => !present.has(href) || (!arrived.has(href) && changed.includes(href)),
  );

  const upserts: CalendarEvent[] = [];
  const removals: string[] = gone.flatMap((href) => known.get(href)?.event_ids ?? []);
  const records: ResourceRecord[] = [];
  for (const resource of fetched) {
    const events = keptEvents(resource, window, context.zone);
    const ids = new Set(events.map((e) => e.id));
    upserts.push(...events);
    removals.push(...(known.get(resource.href)?.event_ids ?? []).filter((id) => !ids.has(id)));
    records.push(record(resource, events));
  }
  const counts = await applyChanges(
    context.store,
    context.calendarId,
    { upserts, removals, resources: { put: records, remove: gone } },
    { onProgress: context.onApply },
  );
  return { mode: 'incremental', counts, state };
}

/** The resource's events in the window, flagged: invitations come from anyone, past the write-time firewall. */
function keptEvents(resource: SyncedResource, window: SyncWindow, zone: string): CalendarEvent[] {
  return resource.events.filter((event) => keepInWindow(event, window, zone)).map(screenProviderEvent);
}

function record(resource: SyncedResource, events: readonly CalendarEvent[]): ResourceRecord {
  return { href: resource.href, etag: resource.etag, event_ids: events.map((e) => e.id) };
}
