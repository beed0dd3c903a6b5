import type { CalendarEvent } from '../calendar/event.js';
import { mapWithConcurrency } from '../concurrency.js';
import type { DocumentStore, StoredItem } from '../ports/index.js';
import { sameJsonValue } from '../same-json.js';
import { SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';
import {
  entryItem,
  entrySk,
  IndexItem,
  indexItem,
  indexSk,
  overridePrefixOf,
  type ResourceRecord,
  resourceItem,
  resourceSk,
  shadowPartition,
} from './shadow-items.js';

/**
 * Writing events into a calendar's shadow, idempotently: applying the same change set twice, or
 * again after a crash half-way, ends in the same items. The port has no transactions, so the
 * order of the steps is what keeps it consistent:
 *   1. delete entries that go away or move (an event whose start changed has a new key),
 *   2. put the new entries with their index items,
 *   3. delete the index items of removed events.
 * A crash before 3 leaves an index item pointing at nothing, which the retry (same change set,
 * since the sync token is stored only after success) deletes; a crash before 2 leaves the event
 * missing until the retry puts it. Never is an entry left that no index item points at. The
 * occurrences of a series that goes away are all removed in step 1, while the master's index
 * item, by which a retry finds them, still says it is a series. A test crashes every write of an
 * apply in turn and checks that the retry converges.
 */

/** Deletes at once: enough to be quick, few enough not to throttle an on-demand table. */
const WRITE_CONCURRENCY = 8;
/** Items per batchPut call, so that progress advances during a big apply. */
const PUT_CHUNK = 100;

export interface ShadowChanges {
  /** Events to store, as the provider has them now. */
  upserts: readonly CalendarEvent[];
  /** Event ids to forget. A series master takes its edited occurrences with it. */
  removals: readonly string[];
  /** CalDAV bookkeeping: resource records to write, and hrefs to forget. */
  resources?: { put: readonly ResourceRecord[]; remove: readonly string[] };
}

export interface WriteCounts {
  /** Events written. */
  upserted: number;
  /** Events removed. */
  deleted: number;
}

export interface ApplyOptions {
  /** Marks the events as recorded by a booking at this instant (see replaceAll's keepBookedSince). */
  bookedAt?: string;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Applies a change set (an incremental sync, or one recorded booking).
 *
 * @example
 * await applyChanges(store, 'google/c1/alice@example.com', { upserts: [moved], removals: ['gone'] });
 */
export async function applyChanges(
  store: DocumentStore,
  calendarId: string,
  changes: ShadowChanges,
  options: ApplyOptions = {},
): Promise<WriteCounts> {
  const pk = shadowPartition(calendarId);
  const upsertIds = new Set(changes.upserts.map((e) => e.id));
  const removals = [...new Set(changes.removals)].filter((id) => !upsertIds.has(id));
  // BatchGetItem reads eventually consistent: fine for index items, written by an earlier run or
  // booking; a retry of a failed apply is the next run, minutes later.
  const pointers = new Map(
    (await store.batchGet([...upsertIds, ...removals].map((id) => ({ pk, sk: indexSk(id) }))))
      .map((item) => IndexItem.parse(item))
      .map((index) => [index.event_id, index]),
  );

  const entryDeletes = new Set<string>();
  const indexDeletes = new Set<string>();
  const formerMasters: string[] = [];
  let deleted = 0;
  for (const id of removals) {
    const pointer = pointers.get(id);
    if (!pointer) continue;
    deleted += 1;
    entryDeletes.add(pointer.at);
    indexDeletes.add(indexSk(id));
    if (pointer.at.startsWith(SK.shadow.seriesPrefix)) formerMasters.push(id);
  }
  for (const event of changes.upserts) {
    const at = pointers.get(event.id)?.at;
    if (at === undefined || at === entrySk(event)) continue;
    entryDeletes.add(at);
    // A master that stopped recurring leaves no series for its edited occurrences to belong to.
    if (at.startsWith(SK.shadow.seriesPrefix) && !entrySk(event).startsWith(SK.shadow.seriesPrefix))
      formerMasters.push(event.id);
  }
  for (const masterId of formerMasters) {
    for (const override of await overridesOf(store, pk, masterId)) {
      if (upsertIds.has(override.eventId)) continue;
      deleted += 1;
      // Both in step 1: the master's index item, which leads a retry to them, changes or goes later.
      entryDeletes.add(override.at);
      entryDeletes.add(indexSk(override.eventId));
    }
  }

  const puts: StoredItem[] = changes.upserts.flatMap((event) => [
    entryItem(calendarId, event, options.bookedAt),
    indexItem(calendarId, event.id, entrySk(event), options.bookedAt),
  ]);
  puts.push(...(changes.resources?.put ?? []).map((r) => resourceItem(calendarId, r)));
  const lastDeletes = [...indexDeletes, ...(changes.resources?.remove ?? []).map(resourceSk)];

  const progress = tracker(entryDeletes.size + puts.length + lastDeletes.length, options.onProgress);
  await deleteAll(store, pk, [...entryDeletes], progress);
  await putAll(store, puts, progress);
  await deleteAll(store, pk, lastDeletes, progress);
  return { upserted: changes.upserts.length, deleted };
}

/**
 * Replaces a calendar's shadow with a full listing: writes what changed, then deletes every item
 * the listing no longer has. An event recorded by a booking at or after `keepBookedSince` (the
 * start of this sync) is kept even if the listing, taken before it existed, lacks it.
 *
 * @example
 * await replaceAll(store, calendarId, events, { keepBookedSince: runStartedAt });
 */
export async function replaceAll(
  store: DocumentStore,
  calendarId: string,
  events: readonly CalendarEvent[],
  options: ApplyOptions & { keepBookedSince: string; resources?: readonly ResourceRecord[] },
): Promise<WriteCounts> {
  const pk = shadowPartition(calendarId);
  const existing = new Map(
    (await queryAll(store, { partition: pk, consistent: true })).map((item) => [item.sk, item]),
  );
  const desired = [
    ...events.flatMap((event) => [
      entryItem(calendarId, event),
      indexItem(calendarId, event.id, entrySk(event)),
    ]),
    ...(options.resources ?? []).map((r) => resourceItem(calendarId, r)),
  ].map(plain);
  const desiredSks = new Set(desired.map((item) => item.sk));
  // An unchanged calendar's weekly full sync rewrites nothing.
  const puts = desired.filter((item) => !sameJsonValue(existing.get(item.sk), item));
  const stale = [...existing.values()].filter(
    (item) =>
      !desiredSks.has(item.sk) &&
      item.sk !== SK.shadow.syncState &&
      item.sk !== SK.shadow.lease &&
      !(typeof item.booked_at === 'string' && item.booked_at >= options.keepBookedSince),
  );
  // Entries before index items, as in applyChanges.
  const staleEntries = stale
    .filter((item) => !item.sk.startsWith(SK.shadow.indexPrefix))
    .map((item) => item.sk);
  const staleIndexes = stale
    .filter((item) => item.sk.startsWith(SK.shadow.indexPrefix))
    .map((item) => item.sk);

  const progress = tracker(puts.length + stale.length, options.onProgress);
  await putAll(store, puts, progress);
  await deleteAll(store, pk, staleEntries, progress);
  await deleteAll(store, pk, staleIndexes, progress);
  return {
    upserted: puts.filter((item) => 'event' in item).length,
    deleted: staleIndexes.length,
  };
}

/**
 * The stored occurrences of a series, found both ways: by their entries, and by index items that
 * point at them (a crash may have removed an entry and left its index item for the retry).
 */
async function overridesOf(
  store: DocumentStore,
  pk: string,
  masterId: string,
): Promise<{ eventId: string; at: string }[]> {
  const prefix = overridePrefixOf(masterId);
  const [entries, pointers] = await Promise.all([
    queryAll(store, { partition: pk, beginsWith: prefix, consistent: true }),
    // An occurrence id is `<master id>_<original start>`.
    queryAll(store, { partition: pk, beginsWith: indexSk(`${masterId}_`), consistent: true }),
  ]);
  const found = new Map(entries.map((item) => [String(item.event_id), item.sk]));
  for (const pointer of pointers.map((item) => IndexItem.parse(item))) {
    if (pointer.at.startsWith(prefix)) found.set(pointer.event_id, pointer.at);
  }
  return [...found].map(([eventId, at]) => ({ eventId, at }));
}

/** The item as the store will hand it back: undefined fields dropped (removeUndefinedValues). */
function plain(item: StoredItem): StoredItem {
  return JSON.parse(JSON.stringify(item)) as StoredItem;
}

function tracker(total: number, onProgress: ApplyOptions['onProgress']) {
  let done = 0;
  onProgress?.(0, total);
  return (count: number) => {
    done += count;
    onProgress?.(done, total);
  };
}

async function putAll(store: DocumentStore, items: readonly StoredItem[], advance: (n: number) => void) {
  for (let i = 0; i < items.length; i += PUT_CHUNK) {
    const chunk = items.slice(i, i + PUT_CHUNK);
    await store.batchPut(chunk);
    advance(chunk.length);
  }
}

async function deleteAll(
  store: DocumentStore,
  pk: string,
  sks: readonly string[],
  advance: (n: number) => void,
) {
  await mapWithConcurrency(sks, WRITE_CONCURRENCY, async (sk) => {
    await store.delete({ pk, sk });
    advance(1);
  });
}
