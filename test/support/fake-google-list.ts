import type { calendar_v3 } from '@googleapis/calendar';
import { badRequest, FakeGoogleHttpError } from './fake-google-errors.js';
import { timeMs } from './fake-google-recurrence.js';
import type { FakeCalendar, FakeGoogleStore } from './fake-google-store.js';

/**
 * events.list and events.instances of the fake: Google's window semantics (an event is listed when
 * it ends after timeMin and starts before timeMax), singleEvents expansion, q, paging through
 * opaque page tokens, and sync tokens that answer 410 Gone once invalidated.
 */

type GoogleEvent = calendar_v3.Schema$Event;

export interface ListPage {
  items: GoogleEvent[];
  nextPageToken?: string;
  nextSyncToken?: string;
}

const DEFAULT_PAGE = 250;
const MAX_PAGE = 2500;

/** Sync tokens name the change sequence they were issued at and the generation that can honour them. */
export function encodeSyncToken(generation: number, seq: number): string {
  return Buffer.from(JSON.stringify({ g: generation, s: seq })).toString('base64url');
}

function decodeToken(token: string): Record<string, number> {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, number>;
  } catch {
    throw badRequest('Invalid page or sync token.');
  }
}

/** Slices one page out of the full result; page tokens are offsets into that result. */
export function paginate<T>(all: T[], params: URLSearchParams): { items: T[]; nextPageToken?: string } {
  const maxResults = Math.min(Number(params.get('maxResults') ?? DEFAULT_PAGE), MAX_PAGE);
  if (!Number.isInteger(maxResults) || maxResults < 1) throw badRequest('Invalid value for maxResults.');
  const pageToken = params.get('pageToken');
  const offset = pageToken ? (decodeToken(pageToken).o ?? 0) : 0;
  const items = all.slice(offset, offset + maxResults);
  const next = offset + maxResults;
  const nextPageToken =
    next < all.length ? Buffer.from(JSON.stringify({ o: next })).toString('base64url') : undefined;
  return { items, nextPageToken };
}

/** A deleted event as Google reports it in a sync: id, status and series bookkeeping only. */
function tombstoneView(event: GoogleEvent): GoogleEvent {
  const { kind, etag, id, recurringEventId, originalStartTime } = event;
  return { kind, etag, id, status: 'cancelled', recurringEventId, originalStartTime };
}

function matchesQuery(event: GoogleEvent, q: string | null): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  const haystack = [
    event.summary,
    event.description,
    event.location,
    ...(event.attendees ?? []).flatMap((a) => [a.email, a.displayName]),
  ];
  return haystack.some((text) => text?.toLowerCase().includes(needle));
}

function inWindow(event: GoogleEvent, zone: string, minMs: number, maxMs: number): boolean {
  return timeMs(event.end ?? {}, zone) > minMs && timeMs(event.start ?? {}, zone) < maxMs;
}

function byStart(zone: string) {
  return (a: GoogleEvent, b: GoogleEvent) =>
    timeMs(a.start ?? {}, zone) - timeMs(b.start ?? {}, zone) || (a.id ?? '').localeCompare(b.id ?? '');
}

/** events.list for one calendar. */
export function listEvents(
  store: FakeGoogleStore,
  calendar: FakeCalendar,
  params: URLSearchParams,
  syncGeneration: number,
): ListPage {
  const syncToken = params.get('syncToken');
  const singleEvents = params.get('singleEvents') === 'true';
  if (syncToken && ['timeMin', 'timeMax', 'q', 'orderBy', 'updatedMin'].some((p) => params.has(p))) {
    throw badRequest('Sync token cannot be combined with timeMin, timeMax, q, orderBy or updatedMin.');
  }
  if (params.get('orderBy') === 'startTime' && !singleEvents) {
    throw badRequest('The requested ordering is not available for the particular query.');
  }
  const minMs = params.has('timeMin') ? Date.parse(params.get('timeMin') ?? '') : -Infinity;
  const maxMs = params.has('timeMax') ? Date.parse(params.get('timeMax') ?? '') : Infinity;
  if (Number.isNaN(minMs) || Number.isNaN(maxMs)) throw badRequest('Bad Request');
  if (minMs >= maxMs) throw badRequest('The specified time range is empty.', 'timeRangeEmpty');

  let all: GoogleEvent[];
  if (syncToken) {
    const token = decodeToken(syncToken);
    if (token.g !== syncGeneration) {
      throw new FakeGoogleHttpError(
        410,
        'fullSyncRequired',
        'Sync token is no longer valid, a full sync is required.',
      );
    }
    all = [...calendar.events.values()]
      .filter((stored) => stored.seq > (token.s ?? 0))
      .sort((a, b) => a.seq - b.seq)
      .map((stored) => (stored.deleted ? tombstoneView(stored.event) : stored.event));
  } else {
    all = currentEvents(store, calendar, singleEvents, params.get('showDeleted') === 'true', maxMs)
      .filter((event) => {
        // A series master is listed when any of its instances falls in the window.
        const candidates = event.recurrence ? store.instances(calendar, event, maxMs) : [event];
        const listed = candidates.some((c) => inWindow(c, calendar.timeZone, minMs, maxMs));
        return listed && matchesQuery(event, params.get('q'));
      })
      .sort(byStart(calendar.timeZone));
  }
  const page = paginate(all, params);
  const syncable = !['timeMin', 'timeMax', 'q'].some((p) => params.has(p));
  return page.nextPageToken || !syncable
    ? page
    : { ...page, nextSyncToken: encodeSyncToken(syncGeneration, store.seq) };
}

function currentEvents(
  store: FakeGoogleStore,
  calendar: FakeCalendar,
  singleEvents: boolean,
  showDeleted: boolean,
  maxMs: number,
): GoogleEvent[] {
  const events: GoogleEvent[] = [];
  for (const stored of calendar.events.values()) {
    const { event } = stored;
    if (stored.deleted) {
      if (showDeleted) events.push(event);
      continue;
    }
    if (event.recurrence && singleEvents) {
      // Exceptions are stored separately and listed by the branch below.
      const virtual = store.instances(calendar, event, maxMs).filter((i) => !calendar.events.has(i.id ?? ''));
      events.push(...virtual);
      continue;
    }
    if (!store.visible(calendar, stored)) continue;
    // Google lists cancelled instances of a series when showDeleted and singleEvents are both false.
    const cancelled = event.status === 'cancelled';
    if (!cancelled || showDeleted || (!singleEvents && event.recurringEventId)) events.push(event);
  }
  return events;
}

/** events.instances: every instance of one series, in start order. */
export function listInstances(
  store: FakeGoogleStore,
  calendar: FakeCalendar,
  eventId: string,
  params: URLSearchParams,
): ListPage {
  const master = calendar.events.get(eventId);
  if (!master || master.deleted) throw new FakeGoogleHttpError(404, 'notFound', 'Not Found');
  if (!master.event.recurrence) return { items: [] };
  const minMs = params.has('timeMin') ? Date.parse(params.get('timeMin') ?? '') : -Infinity;
  const maxMs = params.has('timeMax') ? Date.parse(params.get('timeMax') ?? '') : Infinity;
  const showDeleted = params.get('showDeleted') === 'true';
  const all = store
    .instances(calendar, master.event, maxMs)
    .filter((i) => (showDeleted || i.status !== 'cancelled') && inWindow(i, calendar.timeZone, minMs, maxMs))
    .sort(byStart(calendar.timeZone));
  return paginate(all, params);
}
