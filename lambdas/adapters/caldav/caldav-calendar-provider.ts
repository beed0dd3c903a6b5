import { randomUUID } from 'node:crypto';
import type { CalendarEvent, EventDraft, EventPatch, ProviderCalendar } from '../../core/calendar/event.js';
import { eventFromDraft } from '../../core/calendar/event-from-draft.js';
import { applyPatch, eventTimeMs } from '../../core/calendar/event-times.js';
import { pageByStart } from '../../core/calendar/page-by-start.js';
import {
  editOccurrence,
  editSeries,
  excludeOccurrence,
  expandSeries,
  type Series,
  splitSeries,
  truncateSeries,
} from '../../core/calendar/series.js';
import { matchesText } from '../../core/calendar/text-match.js';
import { DomainError } from '../../core/errors.js';
import {
  type CalendarProvider,
  type CalendarRef,
  type Clock,
  type EventPage,
  type EventQuery,
  systemClock,
  type WriteOptions,
} from '../../core/ports/index.js';
import { parseInstant } from '../../core/time/instants.js';
import { requireZone } from '../../core/time/zones.js';
import { TurnSharer } from '../../core/turns.js';
import { CALENDAR_PROPS, isEventCalendar, mkcalendarProps, toProviderCalendar } from './caldav-calendars.js';
import { CalDavClient, type CalDavConnection } from './caldav-client.js';
import { eventIn, eventsInWindow, sameEtag, seriesOf } from './caldav-events.js';
import { CalDavResources, type Loaded } from './caldav-resources.js';
import type { WriteContext } from './ical-mapping.js';
import { buildResource, type ResourceContent } from './ical-resource.js';

export interface CalDavProviderOptions extends CalDavConnection {
  /** Prefix of the calendar ids this connection's calendars get, e.g. `caldav/<connectionId>/`. */
  calendarPrefix: string;
  clock?: Clock;
  /** New event UIDs and calendar collection names; defaults to random UUIDs. */
  newId?: () => string;
  /** Zone for series and floating times when neither the event nor the calendar names one. */
  defaultTimezone?: string;
}

/**
 * A CalDAV account (Radicale, Nextcloud, Fastmail, iCloud…) as a CalendarProvider. One event or
 * one recurring series per resource, named `<uid>.ics`; series are expanded and edited
 * client-side with core/calendar/series.ts, then written back whole with `If-Match`, so a
 * concurrent change anywhere in the series answers STALE_WRITE instead of being overwritten.
 *
 * @example
 * const caldav = new CalDavCalendarProvider({ serverUrl, username: 'alice', password, calendarPrefix: 'caldav/c1/' });
 * const [work] = await caldav.listCalendars();
 * const page = await caldav.listEvents(caldav.calendarRef(work), { start, end, single_events: true, max_results: 50 });
 */
export class CalDavCalendarProvider implements CalendarProvider {
  private readonly client: CalDavClient;
  private readonly resources: CalDavResources;
  private readonly clock: Clock;
  private readonly newId: () => string;

  constructor(private readonly options: CalDavProviderOptions) {
    this.client = new CalDavClient(options);
    this.resources = new CalDavResources(this.client, options);
    this.clock = options.clock ?? systemClock;
    this.newId = options.newId ?? randomUUID;
  }

  /** The CalendarRef of one of this connection's calendars: `<calendarPrefix><native_id>`. */
  calendarRef(calendar: ProviderCalendar): CalendarRef {
    return {
      native_id: calendar.native_id,
      calendar_id: `${this.options.calendarPrefix}${calendar.native_id}`,
      ...(calendar.time_zone ? { time_zone: calendar.time_zone } : {}),
    };
  }

  async listCalendars(): Promise<ProviderCalendar[]> {
    const home = await this.client.homeUrl();
    const collections = await this.client.collections(CALENDAR_PROPS);
    return collections.filter(isEventCalendar).map((c) => toProviderCalendar(c, home));
  }

  async createCalendar(input: {
    name: string;
    description?: string;
    time_zone?: string;
  }): Promise<ProviderCalendar> {
    const home = await this.client.homeUrl();
    const url = new URL(`${this.newId()}/`, home).href;
    if (input.time_zone) requireZone(input.time_zone, 'time_zone');
    const props = mkcalendarProps(input, this.clock.now().getUTCFullYear());
    await this.client.makeCalendar(url, props);
    const [created] = (await this.client.collections(CALENDAR_PROPS, url)).filter(isEventCalendar);
    if (!created) {
      throw new DomainError(
        'PROVIDER_ERROR',
        'The CalDAV server accepted the new calendar but does not list it.',
      );
    }
    return toProviderCalendar(created, home);
  }

  async listEvents(calendar: CalendarRef, query: EventQuery): Promise<EventPage> {
    const fromMs = parseInstant(query.start, 'start').toMillis();
    const toMs = parseInstant(query.end, 'end').toMillis();
    // CalDAV has no paging: the whole window is read, then paged by (start, id) key-set.
    const zone = this.resources.zoneOf(calendar);
    const found: ReturnType<typeof eventsInWindow>[] = [];
    const turns = query.work ?? new TurnSharer();
    for (const parsed of await this.resources.inWindow(calendar, fromMs, toMs)) {
      await turns.pass();
      found.push(eventsInWindow(parsed, fromMs, toMs, query.single_events, zone, query.work));
    }
    const events = found.flatMap((f) => f.events);
    const matching = query.query ? events.filter((e) => matchesText(e, query.query!)) : events;
    const page = pageByStart(matching, query.max_results, query.page_token);
    return found.every((f) => f.complete) ? page : { ...page, incomplete: true };
  }

  async getEvent(calendar: CalendarRef, eventId: string): Promise<CalendarEvent> {
    const { parsed } = await this.resources.load(calendar, eventId);
    return eventIn(parsed, eventId, this.resources.zoneOf(calendar));
  }

  async createEvent(calendar: CalendarRef, draft: EventDraft): Promise<CalendarEvent> {
    const uid = this.newId();
    const event = eventFromDraft(draft, { id: uid, calendar_id: calendar.calendar_id, etag: '' });
    this.validateRecurrence(event, calendar);
    const url = await this.resources.objectUrl(calendar, uid);
    await this.client.putObject(
      url,
      buildResource({ master: event, overrides: [] }, undefined, this.writeContext()),
    );
    return eventIn(await this.resources.readBack(calendar, url), uid);
  }

  async updateEvent(
    calendar: CalendarRef,
    eventId: string,
    patch: EventPatch,
    options: WriteOptions,
  ): Promise<CalendarEvent> {
    const loaded = await this.resources.load(calendar, eventId);
    const zone = this.resources.zoneOf(calendar);
    checkIfMatch(loaded, eventId, options.if_match, zone);
    const series = seriesOf(loaded.parsed);
    if (!series) {
      const current = eventIn(loaded.parsed, eventId);
      const written = applyPatch(current, patch);
      this.validateRecurrence(written, calendar);
      const content = written.original_start
        ? {
            master: loaded.parsed.master,
            overrides: loaded.parsed.overrides.map((o) => (o.id === eventId ? written : o)),
          }
        : { master: written, overrides: loaded.parsed.overrides };
      return this.rewrite(calendar, loaded, content, written.id);
    }
    const isMaster = series.master.id === eventId;
    if (isMaster || options.scope === 'all') {
      const { series: next, written } = editSeries(series, patch, isMaster ? undefined : eventId, zone);
      this.validateRecurrence(next.master, calendar);
      return this.rewrite(calendar, loaded, next, written.id);
    }
    if (options.scope === 'this') {
      const { series: next, written } = editOccurrence(series, eventId, patch, zone);
      return this.rewrite(calendar, loaded, next, written.id);
    }
    return this.splitAndEdit(calendar, loaded, series, eventId, patch);
  }

  async deleteEvent(calendar: CalendarRef, eventId: string, options: WriteOptions): Promise<void> {
    const loaded = await this.resources.load(calendar, eventId);
    const zone = this.resources.zoneOf(calendar);
    checkIfMatch(loaded, eventId, options.if_match, zone);
    const target = eventIn(loaded.parsed, eventId, zone);
    const series = seriesOf(loaded.parsed);
    const { url, etag, data } = loaded.object;
    if (series && target.id !== series.master.id && options.scope !== 'all') {
      const remaining =
        options.scope === 'this'
          ? excludeOccurrence(series, eventId, zone)
          : truncateSeries(series, eventId, zone);
      if (remaining)
        return this.client.putObject(url, buildResource(remaining, data, this.writeContext()), etag);
    } else if (!loaded.parsed.master && loaded.parsed.overrides.length > 1) {
      // One occurrence of a resource that holds only overrides (an invitation to single occurrences).
      const overrides = loaded.parsed.overrides.filter((o) => o.id !== eventId);
      return this.client.putObject(url, buildResource({ overrides }, data, this.writeContext()), etag);
    }
    return this.client.deleteObject(url, etag);
  }

  /** Scope `following`: the new series is created first, then the old one truncated under If-Match. */
  private async splitAndEdit(
    calendar: CalendarRef,
    loaded: Loaded,
    series: Series,
    eventId: string,
    patch: EventPatch,
  ) {
    const zone = this.resources.zoneOf(calendar);
    const { head, tail } = splitSeries(series, eventId, this.newId(), zone);
    if (!head) {
      const { series: next, written } = editSeries(series, patch, eventId, zone);
      return this.rewrite(calendar, loaded, next, written.id);
    }
    const { series: newTail } = editSeries(tail, patch, tail.master.id, zone);
    this.validateRecurrence(newTail.master, calendar);
    const tailUrl = await this.resources.objectUrl(calendar, newTail.master.id);
    await this.client.putObject(tailUrl, buildResource(newTail, undefined, this.writeContext()));
    try {
      await this.client.putObject(
        loaded.object.url,
        buildResource(head, loaded.object.data, this.writeContext()),
        loaded.object.etag,
      );
    } catch (error) {
      // The old series changed meanwhile (or the write failed): remove the new one, leave no half-split.
      await this.client.deleteObject(tailUrl).catch(() => undefined);
      throw error;
    }
    return eventIn(await this.resources.readBack(calendar, tailUrl), newTail.master.id);
  }

  private async rewrite(calendar: CalendarRef, loaded: Loaded, content: ResourceContent, writtenId: string) {
    const data = buildResource(content, loaded.object.data, this.writeContext());
    await this.client.putObject(loaded.object.url, data, loaded.object.etag);
    return eventIn(
      await this.resources.readBack(calendar, loaded.object.url),
      writtenId,
      this.resources.zoneOf(calendar),
    );
  }

  /** A rule that cannot be expanded is refused now rather than on the first listing. */
  private validateRecurrence(event: CalendarEvent, calendar: CalendarRef): void {
    if (!event.recurrence?.length || event.original_start) return;
    const start = eventTimeMs(event.start);
    expandSeries({ master: event, overrides: [] }, start, start + 1, this.resources.zoneOf(calendar));
  }

  private writeContext(): WriteContext {
    const username = this.options.username;
    return { now: this.clock.now(), ...(username.includes('@') ? { accountEmail: username } : {}) };
  }
}

/**
 * Refuses a write whose `if_match` is neither the addressed event's etag (in a series, the
 * occurrence's own: occurrence-etags.ts) nor the resource's current ETag.
 */
function checkIfMatch(loaded: Loaded, eventId: string, ifMatch: string | undefined, zone?: string): void {
  if (ifMatch === undefined || sameEtag(ifMatch, loaded.object.etag)) return;
  if (!sameEtag(ifMatch, eventIn(loaded.parsed, eventId, zone).etag)) {
    throw new DomainError(
      'STALE_WRITE',
      `Event "${eventId}" changed since you read it. Read it again (get_event) and retry with its new etag.`,
      { event_id: eventId },
    );
  }
}
