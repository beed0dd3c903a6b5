import { z } from 'zod';
import type { Principal } from '../access/rights.js';
import { DomainError, isDomainError } from '../errors.js';
import type { CalendarRecord } from './calendar-registry.js';
import type { CalendarService } from './calendar-service.js';
import type { CalendarEvent } from './event.js';
import type { EventView } from './event-view.js';
import { decodeCursor, encodeCursor } from './page-by-start.js';
import { eventTimeMs } from './series.js';

export const MAX_LIST_RESULTS = 2500;
export const DEFAULT_LIST_RESULTS = 10;
/** Longest window one listing may span: keeps series expansion and fan-out bounded. */
export const MAX_WINDOW_DAYS = 400;
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
}

export interface ListEventsResult {
  events: EventView[];
  count: number;
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
  const primary = order === 'updated' ? Date.parse(event.updated ?? event.created ?? '1970-01-01T00:00:00Z') : eventTimeMs(event.start);
  return [primary, event.calendar_id, event.id];
}

function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

function resolveWindow(service: CalendarService, params: ListEventsParams): { start: number; end: number } {
  const start = params.start ? Date.parse(params.start) : service.deps.clock.now().getTime();
  const end = params.end ? Date.parse(params.end) : start + 30 * DAY_MS;
  if (Number.isNaN(start) || Number.isNaN(end)) {
    throw new DomainError('INVALID_DATETIME', 'start and end must be RFC 3339 timestamps with an offset.');
  }
  if (end <= start) throw new DomainError('INVALID_INPUT', '"end" must be after "start".', { field: 'end' });
  if (end - start > MAX_WINDOW_DAYS * DAY_MS) {
    throw new DomainError('INVALID_INPUT', `The window spans more than ${MAX_WINDOW_DAYS} days: narrow start/end.`, {
      field: 'end',
    });
  }
  return { start, end };
}

/**
 * Events of one calendar beyond `after` in the merged order, at least `wanted` of them when
 * there are that many (start order), or all of them (updated order, which providers do not sort).
 */
async function collect(
  service: CalendarService,
  record: CalendarRecord,
  params: ListEventsParams,
  window: { start: number; end: number },
  after: SortKey | undefined,
  wanted: number,
): Promise<CalendarEvent[]> {
  const { provider, ref } = await service.providerFor(record);
  // Key-set paging: an event after the last one shown starts no earlier than it did.
  const from = params.order_by === 'start_time' && after ? Math.max(window.start, after[0] - 1) : window.start;
  const found: CalendarEvent[] = [];
  let pageToken: string | undefined;
  do {
    const page = await provider.listEvents(ref, {
      start: new Date(from).toISOString(),
      end: new Date(window.end).toISOString(),
      single_events: params.single_events,
      max_results: Math.min(MAX_LIST_RESULTS, Math.max(wanted, 50)),
      ...(params.query ? { query: params.query } : {}),
      ...(pageToken ? { page_token: pageToken } : {}),
    });
    for (const event of page.events) {
      if (!after || compareKeys(sortKey(event, params.order_by), after) > 0) found.push(event);
    }
    pageToken = page.next_page_token;
  } while (pageToken && (params.order_by === 'updated' || found.length < wanted) && found.length < MAX_LIST_RESULTS * 2);
  return found;
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
): Promise<ListEventsResult> {
  const previous = params.page_token ? decodeCursor(params.page_token, Token) : undefined;
  // A follow-up page without start/end continues the window of the first page (its "now").
  const window = resolveWindow(service, {
    ...params,
    ...(previous && !params.start ? { start: previous.w[0] } : {}),
    ...(previous && !params.end ? { end: previous.w[1] } : {}),
  });
  const windowText: [string, string] = [new Date(window.start).toISOString(), new Date(window.end).toISOString()];
  const after = previous ? checkedToken(previous, params, windowText).k : undefined;
  const records = params.calendar_id
    ? [await service.calendarFor(principal, params.calendar_id, 'read')]
    : await Promise.all(
        (await service.listCalendars(principal)).filter((c) => c.can_read).map((c) => service.deps.registry.requireCalendar(c.id)),
      );
  const errors: NonNullable<ListEventsResult['errors']> = [];
  const perCalendar = await Promise.all(
    records.map(async (record) => {
      try {
        return { record, events: await collect(service, record, params, window, after, params.max_results + 1) };
      } catch (error) {
        if (params.calendar_id || !isDomainError(error)) throw error;
        errors.push({ calendar_id: record.calendar_id, code: error.code, message: error.message });
        return { record, events: [] };
      }
    }),
  );
  const merged = perCalendar
    .flatMap(({ record, events }) => events.map((event) => ({ record, event, key: sortKey(event, params.order_by) })))
    .sort((a, b) => compareKeys(a.key, b.key));
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
    events: page.map(({ record, event }) => service.view(record, event)),
    count: page.length,
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
