import type { CalendarEvent } from '../calendar/event.js';
import type { CalendarProvider, CalendarRef } from './calendar-provider.js';

/**
 * What a provider adapter offers the sync engine beyond the CalendarProvider port. Two shapes,
 * because providers report change in two ways; the engine asks the adapter which one it has.
 * Both return series as stored (masters with RRULEs plus edited or cancelled occurrences):
 * the shadow expands them on read, so an open-ended series never needs expanding here.
 */

/**
 * Google- and Outlook-style: everything that changed since an opaque token (all events when there
 * is none). `window` is the span a new start must cover, for providers whose token is bound to
 * a window (Outlook's calendarView delta); Google ignores it.
 */
export interface TokenSyncSource {
  syncEvents(
    calendar: CalendarRef,
    syncToken?: string,
    window?: { fromMs: number; toMs: number },
  ): Promise<{
    events: CalendarEvent[];
    /** Deleted events, and cancelled occurrences as instance ids `<master id>_<original start>`. */
    deleted_ids: string[];
    next_sync_token: string;
    /** The result is the whole calendar (no token, or the provider expired it): replace, do not merge. */
    full_resync: boolean;
  }>;
}

/** One stored object of a collection-based provider (a CalDAV calendar object resource). */
export interface ResourceTag {
  /** Path of the resource on the server. */
  href: string;
  etag: string;
}

export interface SyncedResource extends ResourceTag {
  /** Its events: a one-off event, or a master and its overrides. Empty when it could not be read. */
  events: CalendarEvent[];
}

/** CalDAV-style: a collection tag that changes with any content, and per-resource ETags. */
export interface CollectionSyncSource {
  /** The collection's change tag (CalendarServer getctag, else the WebDAV sync-token); undefined when the server has neither. */
  collectionTag(calendar: CalendarRef): Promise<string | undefined>;
  /** Every resource with an event in the window, with its ETag and no content. */
  resourceTags(calendar: CalendarRef, window: { fromMs: number; toMs: number }): Promise<ResourceTag[]>;
  /** The named resources with their content; a resource deleted meanwhile is simply absent. */
  fetchResources(calendar: CalendarRef, hrefs: readonly string[]): Promise<SyncedResource[]>;
}

/** True when the adapter can list changes by token (Google). */
export function isTokenSyncSource(
  provider: CalendarProvider,
): provider is CalendarProvider & TokenSyncSource {
  return typeof (provider as Partial<TokenSyncSource>).syncEvents === 'function';
}

/** True when the adapter can list resources by tag (CalDAV). */
export function isCollectionSyncSource(
  provider: CalendarProvider,
): provider is CalendarProvider & CollectionSyncSource {
  const candidate = provider as Partial<CollectionSyncSource>;
  return (
    typeof candidate.collectionTag === 'function' &&
    typeof candidate.resourceTags === 'function' &&
    typeof candidate.fetchResources === 'function'
  );
}
