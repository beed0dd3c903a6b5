import * as z from 'zod';
import type { Principal } from '../access/rights.js';
import { type CallWork, isWorkStop } from '../call-work.js';
import { CALENDARS_READ_AT_ONCE, mapWithConcurrency } from '../concurrency.js';
import { DomainError, isDomainError } from '../errors.js';
import type { EventPage, EventQuery } from '../ports/index.js';
import { parseInstant } from '../time/instants.js';
import { checkWindow } from '../time/window.js';
import { requireZone } from '../time/zones.js';
import { calendarReadView } from './calendar-read-view.js';
import type { CalendarRecord } from './calendar-registry.js';
import type { CalendarService } from './calendar-service.js';
import type { CalendarEvent } from './event.js';
import { eventTimeMs } from './event-times.js';
import { type EventView, inZone } from './event-view.js';
import { MAX_WINDOW_DAYS } from './event-window.js';
import { decodeCursor, encodeCursor } from './page-by-start.js';

export const MAX_LIST_RESULTS = 2500;
/** A month of a busy calendar in one page: 10 cost an agent several calls for an ordinary month. */
export const DEFAULT_LIST_RESULTS = 50;
/** Longest window one listing may span: keeps series expansion and fan-out bounded. */
const DAY_MS = 86_400_000;

export interface ListEventsParams {
  calendar_id?: string;
  start?: string;
  end?: string;
  max_results: number;
  page_token?: string;
  single_events: boolean;
  order_by: 'start_time' | 'updated';
  query?: string;
  /** IANA zone the local times are given in; default each event's own zone, else its calendar's. */
  timezone?: string | undefined;
}

export interface ListEventsResult {
  events: EventView[];
  /** Events on this page, not in the window: `has_more` says whether another page follows. */
  count: number;
  has_more: boolean;
  next_page_token?: string;
  calendars_queried: string[];
  /** Calendars that could not be read this time; their events are missing from this page. */
  errors?: { calendar_id: string; code: string; message: string }[];
  window: { start: string; end: string };
}

/** Where the previous page stopped, in the merged order, and the query it belongs to. */
const Token = z.object({
  v: z.literal(1),
  w: z.tuple([z.string(), z.string()]),
  o: z.enum(['start_time', 'updated']),
  c: z.string().nullable(),
  q: z.string().nullable(),
  s: z.boolean(),
  k: z.tuple([z.number(), z.string(), z.string()]),
});
type Token = z.infer<typeof Token>;

type SortKey = [number, string, string];

function sortKey(event: CalendarEvent, order: ListEventsParams['order_by']): SortKey {
  const primary =
    order === 'updated'
      ? Date.parse(event.updated ?? event.created ?? '1970-01-01T00:00:00Z')
      : eventTimeMs(event.start);
  return [primary, event.calendar_id, event.id];
}

function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

function resolveWindow(service: CalendarService, params: ListEventsParams): { start: number; end: number } {
  const start = params.start
    ? parseInstant(params.start, 'start').toMillis()
    : service.deps.clock.now().getTime();
  const end = params.end ? parseInstant(params.end, 'end').toMillis() : start + 30 * DAY_MS;
  const { from, to } = checkWindow(start, end, MAX_WINDOW_DAYS);
  return { start: from, end: to };
}

/**
 * One calendar's events after `after`, in the merged order, fetched from its provider a chunk at
 * a time as the merge consumes them (start order of occurrences). Orders providers do not sort by
 * (`updated`, or series masters) are read whole on the first fill.
 */
class CalendarStream {
  buffer: CalendarEvent[] = [];
  done = false;
  error: { code: string; message: string } | undefined;
  private token: string | undefined;
  private fetched = 0;
  private source: ReturnType<CalendarService['providerFor']> | undefined;

  constructor(
    private readonly service: CalendarService,
    readonly record: CalendarRecord,
    private readonly query: StreamQuery,
    /** The first page, when it was read beside the record (CalendarService.readableWithFirstPage). */
    private firstPage: EventPage | undefined,
  ) {}

  async fill(): Promise<void> {
    // Resolved once per stream: for a connected account it reads the connection and decrypts its secret.
    this.source ??= this.service.providerFor(this.record);
    const { provider, ref } = await this.source;
    const { params } = this.query;
    // Providers sort only expanded occurrences by start; anything else is read whole, then sorted.
    const readAll = params.order_by !== 'start_time' || !params.single_events;
    do {
      const page = this.firstPage ?? (await provider.listEvents(ref, pageQuery(this.query, this.token)));
      this.firstPage = undefined;
      this.fetched += page.events.length;
      const { after } = this.query;
      for (const event of page.events) {
        if (!after || compareKeys(sortKey(event, params.order_by), after) > 0) this.buffer.push(event);
      }
      this.token = page.next_page_token;
      this.done = this.token === undefined || this.fetched >= MAX_LIST_RESULTS * 4;
    } while (readAll && !this.done);
    if (readAll)
      this.buffer.sort((a, b) => compareKeys(sortKey(a, params.order_by), sortKey(b, params.order_by)));
  }
}

/** What every page a calendar's stream reads is asked with. */
interface StreamQuery {
  params: ListEventsParams;
  window: { start: number; end: number };
  after: SortKey | undefined;
  chunk: number;
  work: CallWork | undefined;
}

/** The provider query for one page of a stream (`token`: the provider's next page). */
function pageQuery(
  { params, window, after, chunk, work }: StreamQuery,
  token: string | undefined,
): EventQuery {
  // Key-set paging: an event after the last one shown starts no earlier than it did.
  const from =
    params.order_by === 'start_time' && after ? Math.max(window.start, after[0] - 1) : window.start;
  return {
    start: new Date(from).toISOString(),
    end: new Date(window.end).toISOString(),
    single_events: params.single_events,
    max_results: chunk,
    ...(params.query ? { query: params.query } : {}),
    ...(token ? { page_token: token } : {}),
    ...(work ? { work } : {}),
  };
}

/** Events read per calendar per page: a fair share of the page, within bounds. */
function chunkFor(calendars: number, wanted: number): number {
  return Math.min(MAX_LIST_RESULTS, Math.max(20, Math.ceil(wanted / Math.max(1, calendars)) + 10));
}

/** Refills, in parallel, every stream that ran dry; a failing calendar is recorded, not thrown, in a fan-out. */
async function refill(streams: CalendarStream[], fanOut: boolean): Promise<void> {
  const dry = streams.filter((stream) => stream.buffer.length === 0 && !stream.done);
  await mapWithConcurrency(dry, CALENDARS_READ_AT_ONCE, async (stream) => {
    try {
      await stream.fill();
    } catch (error) {
      if (!fanOut || !isDomainError(error) || isWorkStop(error)) throw error;
      stream.done = true;
      stream.error = { code: error.code, message: error.message };
    }
  });
}

/**
 * A lazy k-way merge: the next event is the smallest head among the calendars, and a calendar is
 * asked for more only when its buffer runs dry, so a page costs about its own size in reads,
 * not the whole window of every calendar.
 */
async function mergeStreams(
  streams: CalendarStream[],
  wanted: number,
  order: ListEventsParams['order_by'],
  fanOut: boolean,
) {
  const merged: { record: CalendarRecord; event: CalendarEvent; key: SortKey }[] = [];
  while (merged.length < wanted) {
    await refill(streams, fanOut);
    let best: CalendarStream | undefined;
    let bestKey: SortKey | undefined;
    for (const stream of streams) {
      const head = stream.buffer[0];
      if (!head) continue;
      const key = sortKey(head, order);
      if (!bestKey || compareKeys(key, bestKey) < 0) {
        best = stream;
        bestKey = key;
      }
    }
    if (!best || !bestKey) break;
    merged.push({ record: best.record, event: best.buffer.shift()!, key: bestKey });
  }
  return merged;
}

/**
 * list_events: one calendar, or every readable one fanned out in parallel and merged by start
 * (then calendar, then id). Pages are key-set: the token holds the last event shown, so a page
 * never repeats or drops an event even when calendars change between calls. A calendar that
 * fails during a fan-out is reported in `errors`; the others still answer.
 */
export async function listEvents(
  service: CalendarService,
  principal: Principal,
  params: ListEventsParams,
  work?: CallWork,
): Promise<ListEventsResult> {
  const previous = params.page_token ? decodeCursor(params.page_token, Token) : undefined;
  const zone = params.timezone === undefined ? undefined : requireZone(params.timezone).name;
  // A follow-up page without start/end continues the window of the first page (its "now").
  const window = resolveWindow(service, {
    ...params,
    ...(previous && !params.start ? { start: previous.w[0] } : {}),
    ...(previous && !params.end ? { end: previous.w[1] } : {}),
  });
  const windowText: [string, string] = [
    new Date(window.start).toISOString(),
    new Date(window.end).toISOString(),
  ];
  const after = previous ? checkedToken(previous, params, windowText).k : undefined;
  const wanted = params.max_results + 1;
  const query = (calendars: number): StreamQuery => ({
    params,
    window,
    after,
    chunk: chunkFor(calendars, wanted),
    work,
  });
  let streams: CalendarStream[];
  if (params.calendar_id) {
    // One calendar: a native one's first page is read beside its record, one round trip.
    const one = query(1);
    const { record, firstPage } = await service.readableWithFirstPage(
      principal,
      params.calendar_id,
      pageQuery(one, undefined),
    );
    streams = [new CalendarStream(service, record, one, firstPage)];
  } else {
    const records = await service.requireReadableCalendars(principal);
    streams = records.map((record) => new CalendarStream(service, record, query(records.length), undefined));
  }
  const records = streams.map((stream) => stream.record);
  const merged = await mergeStreams(streams, wanted, params.order_by, params.calendar_id === undefined);
  const errors = streams.flatMap((s) => (s.error ? [{ calendar_id: s.record.calendar_id, ...s.error }] : []));
  const page = merged.slice(0, params.max_results);
  const last = page.at(-1);
  const token: Token | undefined =
    merged.length > params.max_results && last
      ? {
          v: 1,
          w: windowText,
          o: params.order_by,
          c: params.calendar_id ?? null,
          q: params.query ?? null,
          s: params.single_events,
          k: last.key,
        }
      : undefined;
  return {
    events: page.map(({ record, event }) => inZone(calendarReadView(service, record, event), zone)),
    count: page.length,
    has_more: token !== undefined,
    ...(token ? { next_page_token: encodeCursor(token) } : {}),
    calendars_queried: records.map((r) => r.calendar_id),
    ...(errors.length > 0 ? { errors } : {}),
    window: { start: windowText[0], end: windowText[1] },
  };
}

function checkedToken(token: Token, params: ListEventsParams, window: [string, string]): Token {
  const same =
    token.w[0] === window[0] &&
    token.w[1] === window[1] &&
    token.o === params.order_by &&
    token.c === (params.calendar_id ?? null) &&
    token.q === (params.query ?? null) &&
    token.s === params.single_events;
  if (!same) {
    throw new DomainError(
      'INVALID_INPUT',
      'page_token belongs to a different query: repeat the same calendar_id, start, end, query, order_by and single_events.',
      { field: 'page_token' },
    );
  }
  return token;
}
