import * as z from 'zod';
import { type CalendarEvent, EventStatus, EventTime, Transparency } from '../calendar/event.js';
import { eventTimeMs, originalKey } from '../calendar/event-times.js';
import { LONG_EVENT_MS, sortableUtc } from '../calendar/native/native-items.js';
import { CONNECTED_PROVIDERS } from '../calendar/provider-kind.js';
import type { StoredItem } from '../ports/index.js';
import { PK_PREFIX, SK } from '../storage/key-prefixes.js';

/**
 * How a calendar's shadow lies in the table (docs/data-model.md), one partition per calendar:
 *
 *   pk SHADOW#<calendar id>
 *     sk SYNC                              sync state: token / ctag, window, synced_at, last error
 *     sk LEASE                             who is syncing this calendar now (conditional put)
 *     sk EVT#<start ISO ms>#<id>           one-off event up to a day long (time-range queries)
 *     sk LONG#<id>                         one-off event longer than a day (few; read whole)
 *     sk SER#<id>                          series master with its RRULE (expanded on read)
 *     sk OVR#<master id>#<original key>    edited or cancelled occurrence of a series
 *     sk IDX#<id>                          where event <id> lives now (its sk above)
 *     sk RES#<href path>                   CalDAV only: a resource's ETag and the event ids it holds
 *
 * Everything a read needs is in the table's own key space, so reads are strongly consistent:
 * a booking recorded a moment ago is seen by the next verification.
 */

export const shadowPartition = (calendarId: string) => `${PK_PREFIX.shadow}${calendarId}`;

/**
 * Escapes `#` (and `%`, to stay reversible) inside an id used in a sort key, so that a prefix
 * such as `OVR#<master>#` never matches another master whose id merely starts the same way.
 * Provider ids may contain `#` (Google's holiday calendars, CalDAV UIDs chosen by any client).
 */
export function keyPart(text: string): string {
  return text.replace(/%/g, '%25').replace(/#/g, '%23');
}

export const indexSk = (eventId: string) => `${SK.shadow.indexPrefix}${keyPart(eventId)}`;
export const resourceSk = (href: string) => `${SK.shadow.resourcePrefix}${keyPart(href)}`;
export const overridePrefixOf = (masterId: string) => `${SK.shadow.overridePrefix}${keyPart(masterId)}#`;

/** A series master: it recurs and is not itself an occurrence. */
export function isMaster(event: CalendarEvent): boolean {
  return Boolean(event.recurrence?.length) && !event.original_start;
}

/** The sort key an event is stored under; it changes when the event moves or changes kind. */
export function entrySk(event: CalendarEvent): string {
  if (isMaster(event)) return `${SK.shadow.seriesPrefix}${keyPart(event.id)}`;
  if (event.recurring_event_id && event.original_start) {
    return `${overridePrefixOf(event.recurring_event_id)}${originalKey(event.original_start)}`;
  }
  const startMs = eventTimeMs(event.start);
  if (eventTimeMs(event.end) - startMs > LONG_EVENT_MS)
    return `${SK.shadow.longEventPrefix}${keyPart(event.id)}`;
  return `${SK.shadow.shortEventPrefix}${sortableUtc(startMs)}#${keyPart(event.id)}`;
}

export function entryItem(calendarId: string, event: CalendarEvent, bookedAt?: string): StoredItem {
  return {
    pk: shadowPartition(calendarId),
    sk: entrySk(event),
    event_id: event.id,
    event,
    ...(bookedAt ? { booked_at: bookedAt } : {}),
  };
}

export function indexItem(calendarId: string, eventId: string, at: string, bookedAt?: string): StoredItem {
  return {
    pk: shadowPartition(calendarId),
    sk: indexSk(eventId),
    event_id: eventId,
    at,
    ...(bookedAt ? { booked_at: bookedAt } : {}),
  };
}

/**
 * The fields of a stored event that busy time depends on, checked on read; the rest is kept as
 * the provider adapter produced it. A full CalendarEvent parse would let one odd attendee
 * address written by another client hide a whole calendar's busy time.
 */
const StoredEvent = z.looseObject({
  id: z.string(),
  start: EventTime,
  end: EventTime,
  status: EventStatus,
  transparency: Transparency,
  recurrence: z.array(z.string()).optional(),
  recurring_event_id: z.string().optional(),
  original_start: EventTime.optional(),
});

export const EntryItem = z.object({
  sk: z.string(),
  event_id: z.string(),
  event: StoredEvent,
  booked_at: z.string().optional(),
});

export const IndexItem = z.object({
  sk: z.string(),
  event_id: z.string(),
  at: z.string(),
  booked_at: z.string().optional(),
});
export type IndexItem = z.infer<typeof IndexItem>;

/** A CalDAV resource as last synced: its ETag and the ids of the events stored from it. */
export const ResourceRecord = z.object({
  href: z.string(),
  etag: z.string(),
  event_ids: z.array(z.string()),
});
export type ResourceRecord = z.infer<typeof ResourceRecord>;

export function resourceItem(calendarId: string, record: ResourceRecord): StoredItem {
  return { pk: shadowPartition(calendarId), sk: resourceSk(record.href), ...ResourceRecord.parse(record) };
}

/** The stored event, typed as the model; {@link StoredEvent} checked what reads rely on. */
export function eventOf(item: StoredItem): CalendarEvent {
  return EntryItem.parse(item).event as unknown as CalendarEvent;
}

export const SyncMode = z.enum(['full', 'incremental', 'unchanged']);
export type SyncMode = z.infer<typeof SyncMode>;

/** Per-calendar sync state (sk `SYNC`). */
export const SyncState = z.object({
  provider: z.enum(CONNECTED_PROVIDERS),
  /** Google: the token that asks for changes since the last sync. */
  sync_token: z.string().optional(),
  /** CalDAV: the collection's getctag (or sync-token) read before the last listing. */
  ctag: z.string().optional(),
  /** The time range the shadow covers (RFC 3339, UTC), set by the last full sync. */
  window_from: z.string(),
  window_to: z.string(),
  /** Last successful sync. */
  synced_at: z.string().optional(),
  full_synced_at: z.string().optional(),
  last_attempt_at: z.string(),
  last_mode: SyncMode.optional(),
  last_counts: z.object({ upserted: z.number().int(), deleted: z.number().int() }).optional(),
  /** The last attempt's failure; cleared by the next success. */
  last_error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type SyncState = z.infer<typeof SyncState>;
