import { randomUUID } from 'node:crypto';
import type { CalendarEvent, EventDraft, EventPatch, ProviderCalendar } from '../../core/calendar/event.js';
import { pageByStart } from '../../core/calendar/page-by-start.js';
import type {
  CalendarProvider,
  CalendarRef,
  EventPage,
  EventQuery,
  WriteOptions,
} from '../../core/calendar/provider.js';
import {
  applyPatch,
  editOccurrence,
  editSeries,
  eventTimeMs,
  excludeOccurrence,
  expandSeries,
  parseInstanceId,
  type Series,
  splitSeries,
  truncateSeries,
} from '../../core/calendar/series.js';
import { matchesText } from '../../core/calendar/text-match.js';
import { DomainError, isDomainError } from '../../core/errors.js';
import { type Clock, systemClock } from '../../core/ports.js';
import { parseInstant } from '../../core/time/instants.js';
import { requireZone } from '../../core/time/zones.js';
import { CALENDAR_PROPS, collectionUrl, isEventCalendar, toProviderCalendar } from './caldav-calendars.js';
import { CalDavClient, type CalDavConnection, type StoredObject } from './caldav-client.js';
import { eventIn, eventsInWindow, sameEtag, seriesOf } from './caldav-events.js';
import { type ParsedResource, parseResource, type WriteContext } from './ical-mapping.js';
import { buildResource, type ResourceContent } from './ical-resource.js';
import { buildVtimezone } from './vtimezone.js';

export interface CalDavProviderOptions extends CalDavConnection {
  /** Prefix of the calendar ids this connection's calendars get, e.g. `caldav/<connectionId>/`. */
  calendarPrefix: string;
  clock?: Clock;
  /** New event UIDs; defaults to random UUIDs. */
  newId?: () => string;
  /** Zone for series and floating times when neither the event nor the calendar names one. */
  defaultTimezone?: string;
}

/** Widening of the server-side time-range: all-day and floating events are placed in UTC there. */
const SLACK_MS = 86_400_000;

interface Loaded {
  object: StoredObject;
  parsed: ParsedResource;
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
  private readonly clock: Clock;
  private readonly newId: () => string;

  constructor(private readonly options: CalDavProviderOptions) {
    this.client = new CalDavClient(options);
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
    const props: Record<string, unknown> = {
      'd:displayname': input.name,
      'c:supported-calendar-component-set': { 'c:comp': { _attributes: { name: 'VEVENT' } } },
    };
    if (input.description) props['c:calendar-description'] = input.description;
    if (input.time_zone) {
      requireZone(input.time_zone, 'time_zone');
      const vtimezone = buildVtimezone(input.time_zone, this.clock.now().getUTCFullYear()).toString();
      props['c:calendar-timezone'] = {
        _cdata: `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Meridian//CalDAV adapter//EN\r\n${vtimezone}\r\nEND:VCALENDAR\r\n`,
      };
    }
    await this.client.makeCalendar(url, props);
    const [created] = (await this.client.collections(CALENDAR_PROPS, url)).filter(isEventCalendar);
    if (!created)
      throw new DomainError(
        'PROVIDER_ERROR',
        'The CalDAV server accepted the new calendar but does not list it.',
      );
    return toProviderCalendar(created, home);
  }

  async listEvents(calendar: CalendarRef, query: EventQuery): Promise<EventPage> {
    const fromMs = parseInstant(query.start, 'start').toMillis();
    const toMs = parseInstant(query.end, 'end').toMillis();
    // CalDAV has no paging: the whole window is read, then paged by (start, id) key-set.
    const objects = await this.client.queryObjects(await this.calendarUrl(calendar), {
      start: icalUtc(fromMs - SLACK_MS),
      end: icalUtc(toMs + SLACK_MS),
    });
    const zone = this.zoneOf(calendar);
    const events = objects.flatMap((object) => {
      const parsed = this.tryParse(object, calendar);
      return parsed ? eventsInWindow(parsed, fromMs, toMs, query.single_events, zone) : [];
    });
    const matching = query.query ? events.filter((e) => matchesText(e, query.query!)) : events;
    return pageByStart(matching, query.max_results, query.page_token);
  }

  async getEvent(calendar: CalendarRef, eventId: string): Promise<CalendarEvent> {
    const { parsed } = await this.load(calendar, eventId);
    return eventIn(parsed, eventId, this.zoneOf(calendar));
  }

  async createEvent(calendar: CalendarRef, draft: EventDraft): Promise<CalendarEvent> {
    const uid = this.newId();
    const event = applyPatch(
      {
        id: uid,
        calendar_id: calendar.calendar_id,
        summary: draft.summary,
        start: draft.start,
        end: draft.end,
        status: 'confirmed',
        transparency: 'opaque',
        visibility: 'default',
        attendees: [],
        etag: '',
      },
      draft,
    );
    this.validateRecurrence(event, calendar);
    const url = await this.objectUrl(calendar, uid);
    await this.client.putObject(
      url,
      buildResource({ master: event, overrides: [] }, undefined, this.writeContext()),
    );
    return eventIn(await this.readBack(url, calendar), uid);
  }

  async updateEvent(
    calendar: CalendarRef,
    eventId: string,
    patch: EventPatch,
    options: WriteOptions,
  ): Promise<CalendarEvent> {
    const loaded = await this.load(calendar, eventId);
    checkIfMatch(loaded, eventId, options.if_match);
    const zone = this.zoneOf(calendar);
    const series = seriesOf(loaded.parsed);
    if (!series) {
      const current = eventIn(loaded.parsed, eventId);
      const written = applyPatch(current, patch);
      this.validateRecurrence(written, calendar);
      const content = written.original_start
        ? {
            master: loaded.parsed.master!,
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
    const loaded = await this.load(calendar, eventId);
    checkIfMatch(loaded, eventId, options.if_match);
    const zone = this.zoneOf(calendar);
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
    const zone = this.zoneOf(calendar);
    const { head, tail } = splitSeries(series, eventId, this.newId(), zone);
    if (!head) {
      const { series: next, written } = editSeries(series, patch, eventId, zone);
      return this.rewrite(calendar, loaded, next, written.id);
    }
    const { series: newTail } = editSeries(tail, patch, tail.master.id, zone);
    this.validateRecurrence(newTail.master, calendar);
    const tailUrl = await this.objectUrl(calendar, newTail.master.id);
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
    return eventIn(await this.readBack(tailUrl, calendar), newTail.master.id);
  }

  private async rewrite(calendar: CalendarRef, loaded: Loaded, content: ResourceContent, writtenId: string) {
    const data = buildResource(content, loaded.object.data, this.writeContext());
    await this.client.putObject(loaded.object.url, data, loaded.object.etag);
    return eventIn(await this.readBack(loaded.object.url, calendar), writtenId, this.zoneOf(calendar));
  }

  /** The resource holding `eventId`: `<uid>.ics` first, then a UID search (other clients' names). */
  private async load(calendar: CalendarRef, eventId: string): Promise<Loaded> {
    const instance = parseInstanceId(eventId);
    const uids = instance ? [instance.masterId, eventId] : [eventId];
    for (const uid of uids) {
      const object = await this.client
        .getObject(await this.objectUrl(calendar, uid))
        .catch((error: unknown) => {
          if (isDomainError(error, 'NOT_FOUND')) return undefined;
          throw error;
        });
      const candidates = object
        ? [object]
        : await this.client.findByUid(await this.calendarUrl(calendar), uid);
      for (const candidate of candidates) {
        const parsed = parseResource(candidate.data, this.readContext(calendar, candidate.etag));
        if (parsed.uid === uid) return { object: candidate, parsed };
      }
    }
    throw new DomainError(
      'NOT_FOUND',
      `No event "${eventId}" in calendar "${calendar.calendar_id}": list_events shows the ids that exist.`,
      {
        event_id: eventId,
        calendar_id: calendar.calendar_id,
      },
    );
  }

  private async readBack(url: string, calendar: CalendarRef): Promise<ParsedResource> {
    const object = await this.client.getObject(url);
    return parseResource(object.data, this.readContext(calendar, object.etag));
  }

  /** A resource another client wrote that cannot be read is left out of listings, not fatal to them. */
  private tryParse(object: StoredObject, calendar: CalendarRef): ParsedResource | undefined {
    try {
      return parseResource(object.data, this.readContext(calendar, object.etag));
    } catch {
      return undefined;
    }
  }

  /** A rule that cannot be expanded is refused now rather than on the first listing. */
  private validateRecurrence(event: CalendarEvent, calendar: CalendarRef): void {
    if (!event.recurrence?.length || event.original_start) return;
    const start = eventTimeMs(event.start);
    expandSeries({ master: event, overrides: [] }, start, start + 1, this.zoneOf(calendar));
  }

  private readContext(calendar: CalendarRef, etag: string) {
    const zone = this.zoneOf(calendar);
    return { calendarId: calendar.calendar_id, etag, ...(zone ? { zone } : {}) };
  }

  private writeContext(): WriteContext {
    const username = this.options.username;
    return { now: this.clock.now(), ...(username.includes('@') ? { accountEmail: username } : {}) };
  }

  private zoneOf(calendar: CalendarRef): string | undefined {
    return calendar.time_zone ?? this.options.defaultTimezone;
  }

  private async calendarUrl(calendar: CalendarRef): Promise<string> {
    // An absolute path needs no discovery; a name inside the home does (once per provider).
    const home = calendar.native_id.startsWith('/') ? '' : await this.client.homeUrl();
    return collectionUrl(calendar.native_id, this.options.serverUrl, home);
  }

  private async objectUrl(calendar: CalendarRef, uid: string): Promise<string> {
    return new URL(`${encodeURIComponent(uid)}.ics`, await this.calendarUrl(calendar)).href;
  }
}

function checkIfMatch(loaded: Loaded, eventId: string, ifMatch: string | undefined): void {
  if (ifMatch !== undefined && !sameEtag(ifMatch, loaded.object.etag)) {
    throw new DomainError(
      'STALE_WRITE',
      `Event "${eventId}" changed since you read it. Read it again (get_event) and retry with its new etag.`,
      { event_id: eventId },
    );
  }
}

/** `YYYYMMDDTHHMMSSZ`, the form CalDAV time-range filters take. */
function icalUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}
