import type { CalendarRecord, CalendarRegistry } from '../calendar/calendar-registry.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import { calendarZone } from '../calendar/calendar-zone.js';
import { CalendarEvent } from '../calendar/event.js';
import { type NativeEventsReader, readNativeBeside } from '../calendar/native/native-page-beside.js';
import { isNativeCalendarId } from '../calendar/native-calendar-id.js';
import type { CallWork } from '../call-work.js';
import type {
  Clock,
  DocumentStore,
  EventPage,
  EventQuery,
  Freshness,
  ShadowBusy,
  ShadowCalendar,
} from '../ports/index.js';
import { clampedIso } from '../time/instants.js';
import { busyFromEntries } from './shadow-busy.js';
import { READ_SLACK_MS, ShadowStore, syncCovers } from './shadow-store.js';
import { applyChanges } from './shadow-writes.js';

export interface TableShadowDeps {
  store: DocumentStore;
  registry: CalendarRegistry;
  /** Reaches a native calendar's events (its provider reads the table). */
  calendars: Pick<CalendarService, 'providerFor'>;
  /** The native provider itself: asked by id, it reads the window beside the calendar's record. */
  native: NativeEventsReader;
  clock: Clock;
  /** Zone for all-day events and floating series when the calendar names none. */
  defaultTimezone: string | undefined;
}

/**
 * Busy time needs every event of the window, and each page of a native read expands every series
 * again: 200 series of 34 occurrences a week, read 500 events a page, took 14 pages and 7–11 s.
 * So the window is asked for in one page; the events are held either way.
 */
const NATIVE_PAGE = Number.MAX_SAFE_INTEGER;

/**
 * The shadow calendar in the document store (layout in shadow-items.ts). Connected calendars are
 * read from their shadow partition; a native calendar has no shadow, because its events already
 * live in the table: it is read through the native provider, and is always current.
 *
 * @example
 * const shadow = new TableShadowCalendar({ store, registry, calendars, native, clock, defaultTimezone });
 * const { intervals, synced_at } = await shadow.busyIntervals('google/c1/alice@example.com', from, to);
 */
export class TableShadowCalendar implements ShadowCalendar {
  readonly shadowStore: ShadowStore;

  constructor(private readonly deps: TableShadowDeps) {
    this.shadowStore = new ShadowStore(deps.store);
  }

  async busyIntervals(
    calendar: string | CalendarRecord,
    fromMs: number,
    toMs: number,
    work?: CallWork,
  ): Promise<ShadowBusy> {
    if (typeof calendar !== 'string') {
      if (calendar.provider === 'native') return this.nativeBusy(calendar, fromMs, toMs, work);
      const [state, entries] = await this.shadowReads(calendar.calendar_id, fromMs, toMs);
      return this.busyFromShadow(calendar, state, entries, fromMs, toMs, work);
    }
    // Asked by id: the calendar's events are keyed by the id too, so the record is read beside
    // them, one round trip instead of two (for a calendar that does not exist, the events' reads
    // find nothing and the record's read refuses).
    if (isNativeCalendarId(calendar)) return this.nativeBusyById(calendar, fromMs, toMs, work);
    const [record, [state, entries]] = await Promise.all([
      this.deps.registry.requireCalendar(calendar),
      this.shadowReads(calendar, fromMs, toMs),
    ]);
    // Only a native calendar's id begins with `native/`; should a record ever say otherwise,
    // it is read as what it says it is.
    if (record.provider === 'native') return this.nativeBusy(record, fromMs, toMs, work);
    return this.busyFromShadow(record, state, entries, fromMs, toMs, work);
  }

  private shadowReads(calendarId: string, fromMs: number, toMs: number) {
    return Promise.all([
      this.shadowStore.readState(calendarId),
      this.shadowStore.readWindow(calendarId, fromMs, toMs),
    ]);
  }

  async recordBooking(calendarId: string, event: CalendarEvent): Promise<void> {
    if (isNativeCalendarId(calendarId)) return;
    await this.deps.registry.requireCalendar(calendarId);
    const stamped = CalendarEvent.parse({ ...event, calendar_id: calendarId });
    await applyChanges(
      this.deps.store,
      calendarId,
      { upserts: [stamped], removals: [] },
      { bookedAt: this.deps.clock.now().toISOString() },
    );
  }

  async freshness(calendarId: string): Promise<Freshness> {
    const now = this.deps.clock.now();
    if (isNativeCalendarId(calendarId)) return { synced_at: now.toISOString(), age_seconds: 0 };
    const syncedAt = (await this.shadowStore.readState(calendarId))?.synced_at;
    if (syncedAt === undefined) return {};
    return {
      synced_at: syncedAt,
      age_seconds: Math.max(0, Math.floor((now.getTime() - Date.parse(syncedAt)) / 1000)),
    };
  }

  /**
   * A native calendar asked by id: its events are read beside its record (readNativeBeside),
   * and a record that is not native after all is read as what it says it is.
   */
  private async nativeBusyById(
    calendarId: string,
    fromMs: number,
    toMs: number,
    work: CallWork | undefined,
  ): Promise<ShadowBusy> {
    const window = nativeWindow(fromMs, toMs, undefined, work);
    const { record, result: firstPage } = await readNativeBeside(
      calendarId,
      this.deps.registry.requireCalendar(calendarId),
      (nativeId, reference) => this.deps.native.listEventsBeside(nativeId, reference, window),
    );
    if (firstPage === undefined) return this.busyIntervals(record, fromMs, toMs, work);
    return this.nativeBusy(record, fromMs, toMs, work, firstPage);
  }

  /** A native calendar has no shadow: its events are read through its provider, current. */
  private async nativeBusy(
    record: CalendarRecord,
    fromMs: number,
    toMs: number,
    work: CallWork | undefined,
    firstPage?: EventPage,
  ): Promise<ShadowBusy> {
    const native = await this.nativeEvents(record, fromMs, toMs, work, firstPage);
    const { intervals } = await busyFromEntries(
      { singles: native.events, series: [], overrides: [] },
      fromMs,
      toMs,
      calendarZone(record, this.deps.defaultTimezone),
    );
    return {
      intervals,
      synced_at: this.deps.clock.now().toISOString(),
      live: true,
      ...(native.complete ? {} : { incomplete: true as const }),
      calendar: record,
    };
  }

  private async busyFromShadow(
    record: CalendarRecord,
    state: Awaited<ReturnType<ShadowStore['readState']>>,
    entries: Awaited<ReturnType<ShadowStore['readWindow']>>,
    fromMs: number,
    toMs: number,
    work: CallWork | undefined,
  ): Promise<ShadowBusy> {
    const zone = calendarZone(record, this.deps.defaultTimezone);
    const { intervals, complete } = await busyFromEntries(entries, fromMs, toMs, zone, work);
    return {
      intervals,
      ...(syncCovers(state, fromMs, toMs) ? { synced_at: state!.synced_at } : {}),
      ...(complete ? {} : { incomplete: true as const }),
      calendar: record,
    };
  }

  /**
   * Every instance of a native calendar near the window, page by page. Widened like a shadow read:
   * the provider places all-day dates in UTC, busyFromEntries places them in the calendar's zone.
   */
  private async nativeEvents(
    record: CalendarRecord,
    fromMs: number,
    toMs: number,
    work: CallWork | undefined,
    firstPage: EventPage | undefined,
  ): Promise<{ events: CalendarEvent[]; complete: boolean }> {
    const { provider, ref } = await this.deps.calendars.providerFor(record);
    const events: CalendarEvent[] = [];
    let pageToken: string | undefined;
    let read = firstPage;
    do {
      const page = read ?? (await provider.listEvents(ref, nativeWindow(fromMs, toMs, pageToken, work)));
      read = undefined;
      events.push(...page.events);
      // An incomplete answer is refused whatever the later pages hold: do not expand them too.
      if (page.incomplete) return { events, complete: false };
      pageToken = page.next_page_token;
    } while (pageToken);
    return { events, complete: true };
  }
}

/** The query a native busy read asks its provider: the window, widened, in one page. */
function nativeWindow(
  fromMs: number,
  toMs: number,
  pageToken: string | undefined,
  work: CallWork | undefined,
): EventQuery {
  return {
    start: clampedIso(fromMs - READ_SLACK_MS),
    end: clampedIso(toMs + READ_SLACK_MS),
    single_events: true,
    max_results: NATIVE_PAGE,
    ...(pageToken ? { page_token: pageToken } : {}),
    ...(work ? { work } : {}),
  };
}
