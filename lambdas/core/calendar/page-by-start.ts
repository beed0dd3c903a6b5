import * as z from 'zod';
import { DomainError } from '../errors.js';
import type { EventPage } from '../ports/index.js';
import type { CalendarEvent } from './event.js';
import { eventTimeMs } from './event-times.js';

const Cursor = z.tuple([z.number(), z.string()]);

/**
 * `events` in listing order: start instant, then id — total, so key-set paging never drops or
 * repeats. Each start is parsed once; a comparator that parsed both sides parsed every start
 * about 2·log₂(n) times (6,700 occurrences: 110 ms in one event-loop turn).
 */
export function sortByStart(events: readonly CalendarEvent[]): CalendarEvent[] {
  return events
    .map((event) => ({ event, ms: eventTimeMs(event.start) }))
    .sort((a, b) => a.ms - b.ms || compareIds(a.event.id, b.event.id))
    .map(({ event }) => event);
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** True when the event comes strictly after a (start, id) cursor in listing order. */
export function isAfterCursor(event: CalendarEvent, [ms, id]: readonly [number, string]): boolean {
  const start = eventTimeMs(event.start);
  return start > ms || (start === ms && event.id > id);
}

export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** Decodes a cursor made by {@link encodeCursor}; INVALID_INPUT when it was not. */
export function decodeCursor<T>(token: string, schema: z.ZodType<T>): T {
  try {
    return schema.parse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
  } catch (error) {
    throw new DomainError(
      'INVALID_INPUT',
      'page_token is not one this server issued for this query. Repeat the query without page_token.',
      { field: 'page_token' },
      { cause: error },
    );
  }
}

/**
 * One page of a fully loaded list, by key-set: the token is the (start, id) of the last event
 * returned, so inserts and deletes between pages never shift what comes next.
 */
export function pageByStart(
  events: readonly CalendarEvent[],
  maxResults: number,
  pageToken?: string,
): EventPage {
  const sorted = sortByStart(events);
  let from = 0;
  if (pageToken) {
    const cursor = decodeCursor(pageToken, Cursor);
    from = sorted.findIndex((e) => isAfterCursor(e, cursor));
    if (from < 0) from = sorted.length;
  }
  const page = sorted.slice(from, from + maxResults);
  const last = page.at(-1);
  const more = from + maxResults < sorted.length;
  return {
    events: page,
    ...(more && last ? { next_page_token: encodeCursor([eventTimeMs(last.start), last.id]) } : {}),
  };
}
