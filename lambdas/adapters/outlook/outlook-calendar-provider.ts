import { randomUUID } from 'node:crypto';
import type { CalendarEvent, EventDraft, EventPatch, ProviderCalendar } from '../../core/calendar/event.js';
import { DomainError } from '../../core/errors.js';
import type {
  CalendarProvider,
  CalendarRef,
  EventPage,
  EventQuery,
  WriteOptions,
} from '../../core/ports/index.js';
import { type AccessTokenSource, GraphClient, type GraphRetryOptions } from './graph-client.js';
import {
  type GraphCalendar,
  type GraphEvent,
  toCalendarEvent,
  toGraphEvent,
  toProviderCalendar,
} from './outlook-mapping.js';
import { ownerAnswerAction } from './outlook-owner-answer.js';
import { deleteWithScope, type SeriesApi, updateWithScope } from './outlook-series-edits.js';
import { type OutlookSyncResult, syncCalendarView } from './outlook-sync.js';

export interface OutlookCalendarProviderOptions {
  /** Access tokens for the signed-in account (MSAL, see outlook-tokens.ts). */
  tokens: AccessTokenSource;
  /** Prefix of this connection's calendar ids, e.g. `outlook/<connection id>/`. */
  calendarPrefix: string;
  /** The signed-in account's address: its calendars are its own (owner), others' are shared. */
  accountEmail?: string;
  /** Graph's root, for tests against a local fake. @default 'https://graph.microsoft.com/v1.0' */
  graphRoot?: string;
  /** Backoff for throttling and 5xx. @default 5 attempts, Retry-After or 500 ms base */
  retry?: GraphRetryOptions;
}

interface Page<T> {
  value: T[];
  '@odata.nextLink'?: string;
}

const GRAPH_PAGE = 100;
/** Bound on one window read when the page must be cut here (text filter, series masters). */
const MAX_WINDOW_ITEMS = 5000;

/**
 * The Outlook / Microsoft 365 adapter of the CalendarProvider port, on Microsoft Graph v1.0 with
 * plain `fetch` (ADR 0019). Event ids are Graph's own (opaque; an occurrence has its own id and
 * names its series in `recurring_event_id`). Every event call goes through the calendar's path
 * (`/me/calendars/{id}/events/{id}`), so an id of another calendar answers NOT_FOUND.
 *
 * @example
 * const outlook = new OutlookCalendarProvider({ tokens, calendarPrefix: 'outlook/c1/' });
 * const [calendar] = await outlook.listCalendars();
 * const page = await outlook.listEvents(outlook.calendarRef(calendar), { start, end, single_events: true, max_results: 50 });
 */
export class OutlookCalendarProvider implements CalendarProvider {
  readonly graph: GraphClient;

  constructor(private readonly options: OutlookCalendarProviderOptions) {
    this.graph = new GraphClient(
      options.graphRoot ?? 'https://graph.microsoft.com/v1.0',
      options.tokens,
      options.retry ?? {},
    );
  }

  calendarRef(calendar: Pick<ProviderCalendar, 'native_id' | 'time_zone'>): CalendarRef {
    return {
      native_id: calendar.native_id,
      calendar_id: this.options.calendarPrefix + calendar.native_id,
      ...(calendar.time_zone ? { time_zone: calendar.time_zone } : {}),
    };
  }

  async listCalendars(): Promise<ProviderCalendar[]> {
    const calendars = await this.all<GraphCalendar>('/me/calendars', 'The calendar list');
    return calendars.map((c) => toProviderCalendar(c, this.options.accountEmail));
  }

  async createCalendar(input: {
    name: string;
    description?: string;
    time_zone?: string;
  }): Promise<ProviderCalendar> {
    // Graph calendars have neither a description nor a zone of their own.
    const created = await this.graph.send<GraphCalendar>({
      method: 'POST',
      path: '/me/calendars',
      body: { name: input.name },
      subject: `Calendar "${input.name}"`,
    });
    const calendar = toProviderCalendar({ ...created, owner: null }, this.options.accountEmail);
    return input.time_zone ? { ...calendar, time_zone: input.time_zone } : calendar;
  }

  async listEvents(calendar: CalendarRef, query: EventQuery): Promise<EventPage> {
    const size = Math.min(Math.max(1, query.max_results), 1000);
    const skip = parseSkip(query.page_token);
    const window = { startDateTime: query.start, endDateTime: query.end };
    // Graph pages calendarView by $skip itself; a text filter (Graph filters no body nor
    // attendees) and series masters are cut into pages here from the window read whole.
    if (query.single_events && !query.query) {
      const page = await this.graph.send<Page<GraphEvent>>({
        path: `${this.calendarPath(calendar)}/calendarView`,
        query: { ...window, $top: String(size), $skip: String(skip), $orderby: 'start/dateTime' },
        subject: `Calendar "${calendar.calendar_id}"`,
      });
      const events = page.value.map((e) => this.toDomain(e, calendar));
      // Graph may serve fewer items than $top asks: the next page starts after those served.
      return page['@odata.nextLink']
        ? { events, next_page_token: String(skip + page.value.length) }
        : { events };
    }
    let events = (await this.windowEvents(calendar, window)).map((e) => this.toDomain(e, calendar));
    if (query.query) events = events.filter((e) => matchesText(e, query.query ?? ''));
    if (!query.single_events) events = await this.mastersOf(calendar, events);
    const slice = events.slice(skip, skip + size);
    return skip + size < events.length
      ? { events: slice, next_page_token: String(skip + size) }
      : { events: slice };
  }

  async getEvent(calendar: CalendarRef, eventId: string): Promise<CalendarEvent> {
    return this.toDomain(await this.readEvent(calendar, eventId), calendar);
  }

  async createEvent(calendar: CalendarRef, draft: EventDraft): Promise<CalendarEvent> {
    const { body, cancelledDates } = toGraphEvent(draft, calendar.time_zone);
    // transactionId makes a retried POST (response lost) return the first event, not a twin.
    const created = await this.graph.send<GraphEvent>({
      method: 'POST',
      path: `${this.calendarPath(calendar)}/events`,
      body: { ...body, transactionId: randomUUID() },
      subject: `Calendar "${calendar.calendar_id}"`,
    });
    if (cancelledDates.length) await this.cancelDates(calendar, created, cancelledDates);
    return this.toDomain(await this.recordOwnerAnswer(calendar, created, draft.attendees), calendar);
  }

  async updateEvent(
    calendar: CalendarRef,
    eventId: string,
    patch: EventPatch,
    options: WriteOptions,
  ): Promise<CalendarEvent> {
    const written = await updateWithScope(this.seriesApi(calendar), eventId, patch, options);
    if (written.isCancelled) return this.toDomain(written, calendar);
    return this.toDomain(await this.recordOwnerAnswer(calendar, written, patch.attendees), calendar);
  }

  async deleteEvent(calendar: CalendarRef, eventId: string, options: WriteOptions): Promise<void> {
    await deleteWithScope(this.seriesApi(calendar), eventId, options);
  }

  /**
   * Incremental sync (beyond the port, for the shadow calendar) with calendarView/delta: what
   * changed since `deltaLink`, or the whole `window` (a new round) when there is none or Graph
   * lost the round's state (410): then `full_resync` is true.
   */
  async syncEvents(
    calendar: CalendarRef,
    deltaLink?: string,
    window?: { fromMs: number; toMs: number },
  ): Promise<OutlookSyncResult> {
    return syncCalendarView(
      this.graph,
      calendar,
      this.calendarPath(calendar),
      deltaLink,
      window,
      this.options.accountEmail,
    );
  }

  /** A Graph event as a domain one, the signed-in account's attendee entry marked `self`. */
  private toDomain(event: GraphEvent, calendar: CalendarRef): CalendarEvent {
    return toCalendarEvent(event, calendar, this.options.accountEmail);
  }

  /**
   * Records the owner's answer that a write's attendee list asks for, with Graph's action on the
   * written item (sendResponse false: Meridian records the answer, it does not mail the
   * organizer), and reads the item again for its new etag.
   */
  private async recordOwnerAnswer(
    calendar: CalendarRef,
    written: GraphEvent,
    attendees: EventPatch['attendees'],
  ): Promise<GraphEvent> {
    const action = ownerAnswerAction(written, attendees, this.options.accountEmail);
    if (!action) return written;
    await this.graph.send<void>({
      method: 'POST',
      path: `${this.calendarPath(calendar)}/events/${enc(written.id)}/${action}`,
      body: { sendResponse: false },
      subject: `Event "${written.id}"`,
    });
    return this.readEvent(calendar, written.id);
  }

  /** The event operations series edits need, on one calendar. */
  private seriesApi(calendar: CalendarRef): SeriesApi {
    const path = this.calendarPath(calendar);
    const subject = (id: string) => `Event "${id}"`;
    return {
      calendar,
      get: (id: string) => this.readEvent(calendar, id),
      patch: (id: string, body: Partial<GraphEvent>, ifMatch?: string) =>
        this.graph.send<GraphEvent>({
          method: 'PATCH',
          path: `${path}/events/${enc(id)}`,
          body,
          ifMatch,
          subject: subject(id),
        }),
      delete: (id: string, ifMatch?: string) =>
        this.graph.send<void>({
          method: 'DELETE',
          path: `${path}/events/${enc(id)}`,
          ifMatch,
          subject: subject(id),
        }),
      create: (body: Partial<GraphEvent>) =>
        this.graph.send<GraphEvent>({
          method: 'POST',
          path: `${path}/events`,
          body: { ...body, transactionId: randomUUID() },
          subject: `Calendar "${calendar.calendar_id}"`,
        }),
      instances: (masterId: string, from: string, to: string) =>
        this.all<GraphEvent>(`${path}/events/${enc(masterId)}/instances`, subject(masterId), {
          startDateTime: from,
          endDateTime: to,
        }),
    };
  }

  private readEvent(calendar: CalendarRef, eventId: string): Promise<GraphEvent> {
    return this.graph.send<GraphEvent>({
      path: `${this.calendarPath(calendar)}/events/${enc(eventId)}`,
      subject: `Event "${eventId}"`,
    });
  }

  /** Deletes the occurrences of a new series on the local dates its EXDATEs named. */
  private async cancelDates(calendar: CalendarRef, master: GraphEvent, dates: string[]): Promise<void> {
    const first = dates.reduce((a, b) => (a < b ? a : b));
    const last = dates.reduce((a, b) => (a > b ? a : b));
    const from = new Date(Date.parse(`${first}T00:00:00Z`) - 86_400_000).toISOString();
    const to = new Date(Date.parse(`${last}T00:00:00Z`) + 2 * 86_400_000).toISOString();
    const api = this.seriesApi(calendar);
    for (const occurrence of await api.instances(master.id, from, to)) {
      const local = toCalendarEvent(occurrence, calendar).original_start;
      const date = local && ('date' in local ? local.date : local.date_time.slice(0, 10));
      if (date && dates.includes(date)) await api.delete(occurrence.id);
    }
  }

  /** Every item of a window, following Graph's pages, bounded. */
  private async windowEvents(calendar: CalendarRef, window: { startDateTime: string; endDateTime: string }) {
    const events = await this.all<GraphEvent>(
      `${this.calendarPath(calendar)}/calendarView`,
      `Calendar "${calendar.calendar_id}"`,
      {
        ...window,
        $top: String(GRAPH_PAGE),
        $orderby: 'start/dateTime',
      },
    );
    return events;
  }

  /** single_events false: one-off events as they are, each series' master once in its place. */
  private async mastersOf(calendar: CalendarRef, events: CalendarEvent[]): Promise<CalendarEvent[]> {
    const seen = new Set<string>();
    const result: CalendarEvent[] = [];
    for (const event of events) {
      const masterId = event.recurring_event_id;
      if (!masterId) result.push(event);
      else if (!seen.has(masterId)) {
        seen.add(masterId);
        result.push(await this.getEvent(calendar, masterId));
      }
    }
    return result;
  }

  private async all<T>(path: string, subject: string, query?: Record<string, string>): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = path;
    let first = true;
    while (next) {
      const page: Page<T> = await this.graph.send<Page<T>>({
        path: next,
        ...(first && query ? { query } : {}),
        subject,
      });
      items.push(...page.value);
      if (items.length > MAX_WINDOW_ITEMS) {
        throw new DomainError(
          'INVALID_INPUT',
          `${subject} has more than ${MAX_WINDOW_ITEMS} events in this window: ask for a shorter window.`,
        );
      }
      next = page['@odata.nextLink'];
      first = false;
    }
    return items;
  }

  /** Refuses a calendar of another connection: its id would name a calendar of the wrong account. */
  private calendarPath(calendar: CalendarRef): string {
    if (!calendar.calendar_id.startsWith(this.options.calendarPrefix)) {
      throw new DomainError(
        'INVALID_INPUT',
        `Calendar "${calendar.calendar_id}" does not belong to this Outlook connection (${this.options.calendarPrefix}…). List calendars to get its id.`,
      );
    }
    return `/me/calendars/${enc(calendar.native_id)}`;
  }
}

const enc = (id: string) => encodeURIComponent(id);

function parseSkip(token: string | undefined): number {
  if (token === undefined) return 0;
  const skip = Number(token);
  if (!Number.isInteger(skip) || skip < 0) {
    throw new DomainError(
      'INVALID_INPUT',
      'page_token is not one this calendar returned. Start again without it.',
    );
  }
  return skip;
}

function matchesText(event: CalendarEvent, text: string): boolean {
  const needle = text.toLowerCase();
  return [
    event.summary,
    event.description,
    event.location,
    ...event.attendees.map((a) => `${a.email} ${a.display_name ?? ''}`),
  ].some((field) => field?.toLowerCase().includes(needle));
}
