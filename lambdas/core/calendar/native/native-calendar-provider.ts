import * as z from 'zod';
import { type CallWork, NARROW_CALENDAR_READ } from '../../call-work.js';
import { DomainError } from '../../errors.js';
import { echo } from '../../input-limits.js';
import {
  type CalendarProvider,
  type CalendarRef,
  type Clock,
  type Condition,
  ConditionFailedError,
  type DocumentStore,
  type EventPage,
  type EventQuery,
  type RandomSource,
  type WriteOptions,
} from '../../ports/index.js';
import { SK } from '../../storage/key-prefixes.js';
import { queryAll } from '../../storage/query-all.js';
import { TurnSharer } from '../../turns.js';
import type { CalendarEvent, EventDraft, EventPatch, ProviderCalendar } from '../event.js';
import { eventFromDraft } from '../event-from-draft.js';
import { applyPatch, eventTimeMs, overlapsWindow, parseInstanceId } from '../event-times.js';
import { markSelf } from '../owner-attendee.js';
import { decodeCursor, encodeCursor, isAfterCursor, sortByStart } from '../page-by-start.js';
import type { Series } from '../series.js';
import { matchesText } from '../text-match.js';
import {
  etagOf,
  eventSk,
  eventToItem,
  itemToEvent,
  itemToSeries,
  LONG_EVENT_MS,
  longIndexOf,
  partitionOf,
  type SeriesMarks,
  seriesSk,
  seriesToItem,
  sortableUtc,
  stampOccurrence,
  stampSeries,
  startIndexOf,
} from './native-items.js';
import { committedSeries, finalize, resolveSeries } from './native-pending.js';

/**
 * The recurrence code (rrule, ical.js), loaded only once a read or write meets a series: a one-off
 * event's create, update or lookup, and a window without series, never pay for it on a cold start.
 */
const seriesCode = () => import('../series.js');

export interface NativeProviderDeps {
  store: DocumentStore;
  clock: Clock;
  random: RandomSource;
  /** Zone for floating recurrence when an event names none. */
  defaultTimezone?: string;
}

/**
 * Series items read per page. A page is parsed in one event-loop turn (in the embedded runtime the
 * store answers in the same process too): 1,000 series in one page held the loop for ~100 ms.
 */
const SERIES_PAGE = 100;

const PageCursor = z.tuple([z.number(), z.string()]);

type Stored =
  | { kind: 'event'; event: CalendarEvent; version: number }
  | { kind: 'series'; series: Series; version: number };

const versionIs = (version: number): Condition => ({ op: 'eq', attribute: 'version', value: version });

function staleWrite(id: string, cause?: unknown): DomainError {
  return new DomainError(
    'STALE_WRITE',
    `Event "${id}" changed since you read it. Read it again (get_event) and retry with its new etag.`,
    { event_id: id },
    { cause },
  );
}

/**
 * Meridian's own calendars, stored in the document store. Every write is one conditional put or
 * delete on a version, so concurrent edits never silently overwrite each other.
 *
 * Two edits touch two items: a one-off event that gains a recurrence becomes a series, and a
 * `following` edit splits a series in two. Each writes the new series first, marked `pending`
 * (readers skip it), then commits with one conditional write of the old item (the one-off deleted,
 * the old series truncated and naming the new one in `split_into`), then drops the mark. A crash
 * between any two writes thus shows either the old state or the new one, whole; a pending series
 * left uncommitted is deleted by the next reader once it is older than PENDING_GRACE_MS.
 */
export class NativeCalendarProvider implements CalendarProvider {
  constructor(private readonly deps: NativeProviderDeps) {}

  async listCalendars(): Promise<ProviderCalendar[]> {
    // Native calendars are listed from the registry; the provider holds only their events.
    return [];
  }

  async createCalendar(input: {
    name: string;
    description?: string;
    time_zone?: string;
  }): Promise<ProviderCalendar> {
    return {
      native_id: this.deps.random.uuid(),
      name: input.name,
      ...(input.description ? { description: input.description } : {}),
      ...(input.time_zone ? { time_zone: input.time_zone } : {}),
      primary: false,
      access_role: 'owner',
    };
  }

  /**
   * One page in (start, id) order. Series and long events are few and always read whole; one-off
   * events are read from the start index only as far as the page needs, starting at the cursor.
   * A series is expanded only as far as the page can reach: a page of n events needs at most n
   * (and its edited occurrences) from each series, so an endless series costs a page its size,
   * not the window's thousands of occurrences. The page then ends at the earliest point a series
   * stopped (its horizon), so no occurrence before the page's last event is missing.
   */
  async listEvents(calendar: CalendarRef, query: EventQuery): Promise<EventPage> {
    return this.listEventsBeside(calendar.native_id, Promise.resolve(calendar), query);
  }

  /**
   * listEvents for a calendar whose reference is still being read (its registry record): the
   * table reads are keyed by the native id alone, so they go out beside that read, one round
   * trip instead of two; the reference is needed only to expand series in the calendar's zone
   * and to mark its owner. Should the reference name another native id, the window is read again
   * for the one it names: never an answer for the wrong calendar.
   */
  async listEventsBeside(
    nativeId: string,
    reference: Promise<CalendarRef>,
    query: EventQuery,
  ): Promise<EventPage> {
    const fromMs = Date.parse(query.start);
    const toMs = Date.parse(query.end);
    const after = query.page_token ? decodeCursor(query.page_token, PageCursor) : undefined;
    const { work } = query;
    const keep = (event: CalendarEvent) =>
      overlapsWindow(event, fromMs, toMs) &&
      (!query.query || matchesText(event, query.query)) &&
      (!after || isAfterCursor(event, after));
    // The three reads are independent of each other and of the reference: one round trip.
    const [calendar, long, seriesItems, { events: singles, exhausted }] = await Promise.all([
      reference,
      queryAll(this.deps.store, { index: 'gsi1', partition: longIndexOf(nativeId) }),
      queryAll(this.deps.store, {
        partition: partitionOf(nativeId),
        beginsWith: SK.nativeCalendar.seriesPrefix,
        limit: SERIES_PAGE,
      }),
      this.readSingles(nativeId, fromMs, toMs, after, query.max_results + 1, keep, work),
    ]);
    if (calendar.native_id !== nativeId) return this.listEvents(calendar, query);
    work?.spend(long.length + seriesItems.length, NARROW_CALENDAR_READ);
    const candidates = long.map((item) => itemToEvent(item).event).filter(keep);
    let incomplete = false;
    let horizon = Number.POSITIVE_INFINITY;
    const nowMs = this.deps.clock.now().getTime();
    const turns = work ?? new TurnSharer();
    // Occurrences before the cursor's instant are not shown again: expand from there.
    const expandFrom = after ? Math.max(fromMs, after[0]) : fromMs;
    for (const series of await committedSeries(this.deps.store, calendar.native_id, seriesItems, nowMs)) {
      await turns.pass();
      const textMatches = !query.query || matchesText(series.master, query.query);
      if (query.single_events && !textMatches) {
        // Generated occurrences carry the master's text: only edited ones can match.
        candidates.push(...series.overrides.filter((o) => o.status !== 'cancelled' && keep(o)));
        continue;
      }
      const { expandSeriesSharing, expandSeriesWithin } = await seriesCode();
      // One occurrence tells whether a master belongs to the window; a page needs its own size.
      const limit = query.single_events ? query.max_results + series.overrides.length + 2 : 1;
      const zone = this.zoneOf(calendar);
      const expanded = work
        ? await expandSeriesSharing(series, expandFrom, toMs, zone, { limit, work })
        : expandSeriesWithin(series, expandFrom, toMs, zone, { limit });
      const instances = expanded.events;
      incomplete ||= !expanded.complete;
      if (query.single_events) {
        candidates.push(...instances.filter(keep));
        if (expanded.horizon !== undefined) horizon = Math.min(horizon, expanded.horizon);
      } else if (instances.length > 0 && textMatches) candidates.push(series.master);
    }
    const sorted = sortByStart([...candidates, ...singles]).filter((e) => eventTimeMs(e.start) <= horizon);
    const page = sorted.slice(0, query.max_results);
    const last = page.at(-1);
    const more = sorted.length > query.max_results || !exhausted || horizon !== Number.POSITIVE_INFINITY;
    // Nothing up to a series' horizon was kept (all filtered out): the next page starts after it.
    const cursor = last ? [eventTimeMs(last.start), last.id] : [horizon, '\uffff'];
    return {
      events: page.map((event) => this.owned(calendar, event)),
      ...(more ? { next_page_token: encodeCursor(cursor) } : {}),
      ...(incomplete ? { incomplete } : {}),
    };
  }

  /** Up to `wanted` kept one-off events in index order from the cursor (or the window's reach). */
  private async readSingles(
    nativeId: string,
    fromMs: number,
    toMs: number,
    after: [number, string] | undefined,
    wanted: number,
    keep: (event: CalendarEvent) => boolean,
    work: CallWork | undefined,
  ): Promise<{ events: CalendarEvent[]; exhausted: boolean }> {
    const lower = after ? `${sortableUtc(after[0])}#${after[1]}` : sortableUtc(fromMs - LONG_EVENT_MS);
    const events: CalendarEvent[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.deps.store.query({
        index: 'gsi1',
        partition: startIndexOf(nativeId),
        between: { from: lower, to: `${sortableUtc(toMs)}~` },
        limit: Math.min(1000, wanted - events.length + 10),
        ...(cursor ? { cursor } : {}),
      });
      work?.spend(page.items.length, NARROW_CALENDAR_READ);
      for (const item of page.items) {
        const { event } = itemToEvent(item);
        if (keep(event)) events.push(event);
      }
      cursor = page.cursor;
    } while (cursor && events.length < wanted);
    return { events, exhausted: cursor === undefined };
  }

  async getEvent(calendar: CalendarRef, eventId: string): Promise<CalendarEvent> {
    return this.getEventBeside(calendar.native_id, Promise.resolve(calendar), eventId);
  }

  /**
   * getEvent for a calendar whose reference is still being read (its registry record): the
   * event's items are keyed by the native id alone, so they are read beside that read, one round
   * trip instead of two. Should the reference name another native id, the event is read again
   * from the calendar it names.
   */
  async getEventBeside(
    nativeId: string,
    reference: Promise<CalendarRef>,
    eventId: string,
  ): Promise<CalendarEvent> {
    const read = this.loadStored(nativeId, eventId);
    read.catch(() => undefined); // awaited below, once the reference is known
    const calendar = await reference;
    if (calendar.native_id !== nativeId) return this.getEvent(calendar, eventId);
    const stored = (await read) ?? eventNotFound(calendar, eventId);
    if (stored.kind === 'event') return this.owned(calendar, stored.event);
    if (stored.series.master.id === eventId) return this.owned(calendar, stored.series.master);
    const { findOccurrence } = await seriesCode();
    return this.owned(calendar, findOccurrence(stored.series, eventId, this.zoneOf(calendar)));
  }

  /** The event as read: the calendar owner's attendee entry marked `self` (see markSelf). */
  private owned(calendar: CalendarRef, event: CalendarEvent): CalendarEvent {
    return {
      ...event,
      attendees: markSelf(event.attendees, calendar.owner_email ? [calendar.owner_email] : []),
    };
  }

  async createEvent(calendar: CalendarRef, draft: EventDraft): Promise<CalendarEvent> {
    const now = this.deps.clock.now().toISOString();
    const event = eventFromDraft(draft, {
      id: this.deps.random.uuid().replace(/-/g, ''),
      calendar_id: calendar.calendar_id,
      etag: '"1"',
      created: now,
    });
    if (event.recurrence?.length) {
      const series: Series = { master: event, overrides: [] };
      const { expandSeries } = await seriesCode();
      // Validates the rule now rather than on the first listing.
      expandSeries(series, eventTimeMs(event.start), eventTimeMs(event.start) + 1, this.zoneOf(calendar));
      await this.deps.store.put(seriesToItem(calendar.native_id, series, 1), {
        condition: { op: 'not_exists' },
      });
    } else {
      await this.deps.store.put(eventToItem(calendar.native_id, event, 1), {
        condition: { op: 'not_exists' },
      });
    }
    return event;
  }

  async updateEvent(
    calendar: CalendarRef,
    eventId: string,
    patch: EventPatch,
    options: WriteOptions,
  ): Promise<CalendarEvent> {
    const stored = await this.load(calendar, eventId);
    checkIfMatch(stored, eventId, options.if_match);
    const touched = { updated: this.deps.clock.now().toISOString() };
    const zone = this.zoneOf(calendar);
    if (stored.kind === 'event') {
      const written = { ...applyPatch(stored.event, patch), ...touched };
      if (written.recurrence?.length) return this.promoteToSeries(calendar, stored.version, written);
      await this.putEvent(calendar, written, stored.version);
      return { ...written, etag: `"${stored.version + 1}"` };
    }
    const { editOccurrence, editSeries, splitSeries } = await seriesCode();
    const isMaster = stored.series.master.id === eventId;
    const next = stored.version + 1;
    if (isMaster || options.scope === 'all') {
      const { series, written } = editSeries(
        stored.series,
        { ...patch },
        isMaster ? undefined : eventId,
        zone,
      );
      series.master = { ...series.master, ...touched };
      await this.putSeries(calendar, stampSeries(series, next), stored.version);
      return { ...written, ...touched, etag: etagOf(next) };
    }
    if (options.scope === 'this') {
      // Only this occurrence's etag changes: its siblings' stay valid for their own if_match.
      const { series, written } = editOccurrence(stored.series, eventId, patch, zone);
      await this.putSeries(calendar, stampOccurrence(series, written.id, next), stored.version);
      return { ...written, ...touched, etag: etagOf(next) };
    }
    const newId = this.deps.random.uuid().replace(/-/g, '');
    const { head, tail } = splitSeries(stored.series, eventId, newId, zone);
    if (!head) {
      const { series, written } = editSeries(stored.series, patch, eventId, zone);
      await this.putSeries(calendar, stampSeries(series, next), stored.version);
      return { ...written, ...touched, etag: etagOf(next) };
    }
    const { series: newTail } = editSeries(tail, patch, tail.master.id, zone);
    newTail.master = { ...newTail.master, ...touched, created: touched.updated };
    const pending = {
      kind: 'split',
      of: stored.series.master.id,
      since: Date.parse(touched.updated),
    } as const;
    await this.deps.store.put(seriesToItem(calendar.native_id, stampSeries(newTail, 1), 1, { pending }), {
      condition: { op: 'not_exists' },
    });
    try {
      await this.putSeries(calendar, stampSeries(head, next), stored.version, { split_into: newId });
    } catch (error) {
      // The old series changed meanwhile: undo the new one so nothing is left half-split.
      await this.deps.store.delete({ pk: partitionOf(calendar.native_id), sk: seriesSk(newId) });
      throw error;
    }
    await finalize(this.deps.store, calendar.native_id, stampSeries(newTail, 1), 1);
    return { ...newTail.master, etag: '"1"' };
  }

  async deleteEvent(calendar: CalendarRef, eventId: string, options: WriteOptions): Promise<void> {
    const stored = await this.load(calendar, eventId);
    checkIfMatch(stored, eventId, options.if_match);
    const zone = this.zoneOf(calendar);
    if (stored.kind === 'event') return this.deleteItem(calendar, eventSk(eventId), stored.version, eventId);
    const masterId = stored.series.master.id;
    if (eventId === masterId || options.scope === 'all') {
      return this.deleteItem(calendar, seriesSk(masterId), stored.version, eventId);
    }
    const { excludeOccurrence, truncateSeries } = await seriesCode();
    const remaining =
      options.scope === 'this'
        ? excludeOccurrence(stored.series, eventId, zone)
        : truncateSeries(stored.series, eventId, zone);
    if (!remaining) return this.deleteItem(calendar, seriesSk(masterId), stored.version, eventId);
    // The rule itself changed (an EXDATE, or an end): a change to the series as a whole.
    await this.putSeries(calendar, stampSeries(remaining, stored.version + 1), stored.version);
  }

  private zoneOf(calendar: CalendarRef): string | undefined {
    return calendar.time_zone ?? this.deps.defaultTimezone;
  }

  private async load(calendar: CalendarRef, eventId: string): Promise<Stored> {
    return (await this.loadStored(calendar.native_id, eventId)) ?? eventNotFound(calendar, eventId);
  }

  /** The event or series `eventId` names in the native calendar, if there is one. */
  private async loadStored(nativeId: string, eventId: string): Promise<Stored | undefined> {
    const masterId = parseInstanceId(eventId)?.masterId;
    const pk = partitionOf(nativeId);
    const keys = [
      { pk, sk: eventSk(eventId) },
      { pk, sk: seriesSk(eventId) },
    ];
    if (masterId) keys.push({ pk, sk: seriesSk(masterId) });
    const items = await Promise.all(keys.map((key) => this.deps.store.get(key, { consistent: true })));
    const [single, series, parent] = items;
    const seriesItem = series ?? parent;
    const loaded = seriesItem
      ? await resolveSeries(
          this.deps.store,
          nativeId,
          itemToSeries(seriesItem),
          single !== undefined,
          this.deps.clock.now().getTime(),
        )
      : undefined;
    if (single) return { kind: 'event', ...itemToEvent(single) };
    if (loaded) return { kind: 'series', ...loaded };
    return undefined;
  }

  private async putEvent(calendar: CalendarRef, event: CalendarEvent, version: number): Promise<void> {
    try {
      await this.deps.store.put(eventToItem(calendar.native_id, event, version + 1), {
        condition: versionIs(version),
      });
    } catch (error) {
      throw error instanceof ConditionFailedError ? staleWrite(event.id, error) : error;
    }
  }

  private async putSeries(
    calendar: CalendarRef,
    series: Series,
    version: number,
    marks: SeriesMarks = {},
  ): Promise<void> {
    try {
      await this.deps.store.put(seriesToItem(calendar.native_id, series, version + 1, marks), {
        condition: versionIs(version),
      });
    } catch (error) {
      throw error instanceof ConditionFailedError ? staleWrite(series.master.id, error) : error;
    }
  }

  private async deleteItem(calendar: CalendarRef, sk: string, version: number, id: string): Promise<void> {
    try {
      await this.deps.store.delete(
        { pk: partitionOf(calendar.native_id), sk },
        { condition: versionIs(version) },
      );
    } catch (error) {
      throw error instanceof ConditionFailedError ? staleWrite(id, error) : error;
    }
  }

  /**
   * A one-off event that gains a recurrence becomes a series: write the series pending, commit by
   * deleting the event, then drop the mark.
   */
  private async promoteToSeries(
    calendar: CalendarRef,
    version: number,
    master: CalendarEvent,
  ): Promise<CalendarEvent> {
    const series: Series = { master: { ...master, etag: etagOf(version + 1) }, overrides: [] };
    const { expandSeries } = await seriesCode();
    expandSeries(series, eventTimeMs(master.start), eventTimeMs(master.start) + 1, this.zoneOf(calendar));
    const pending = { kind: 'promotion', since: this.deps.clock.now().getTime() } as const;
    try {
      await this.deps.store.put(seriesToItem(calendar.native_id, series, version + 1, { pending }), {
        condition: { op: 'not_exists' },
      });
    } catch (error) {
      // Another promotion of this event is in flight (or a crash left one, removed once stale).
      throw error instanceof ConditionFailedError ? staleWrite(master.id, error) : error;
    }
    try {
      await this.deleteItem(calendar, eventSk(master.id), version, master.id);
    } catch (error) {
      await this.deps.store.delete({ pk: partitionOf(calendar.native_id), sk: seriesSk(master.id) });
      throw error;
    }
    await finalize(this.deps.store, calendar.native_id, series, version + 1);
    return { ...master, etag: `"${version + 1}"` };
  }
}

/**
 * Refuses a write whose `if_match` is not the addressed event's etag. In a series that is the
 * occurrence's own (native-items.ts itemToSeries), so an edit of a sibling does not refuse it;
 * the item's version is accepted too, since nothing in the series changed since it was read.
 */
function checkIfMatch(stored: Stored, id: string, ifMatch: string | undefined): void {
  if (ifMatch === undefined) return;
  const given = ifMatch.replace(/^"(.*)"$/, '$1');
  const current =
    stored.kind === 'event'
      ? stored.event.etag
      : (stored.series.overrides.find((o) => o.id === id)?.etag ?? stored.series.master.etag);
  if (given !== current.replace(/^"(.*)"$/, '$1') && given !== String(stored.version)) throw staleWrite(id);
}

function eventNotFound(calendar: CalendarRef, eventId: string): never {
  throw new DomainError('NOT_FOUND', `No event ${echo(eventId)} in calendar "${calendar.calendar_id}".`, {
    event_id: eventId,
    calendar_id: calendar.calendar_id,
  });
}
