import type { CalendarEvent } from '../../core/calendar/event.js';
import { DomainError, isDomainError } from '../../core/errors.js';
import type { CalendarRef } from '../../core/ports/index.js';
import type { GraphClient } from './graph-client.js';
import { type GraphEvent, toCalendarEvent } from './outlook-mapping.js';

/**
 * Incremental sync of one Outlook calendar with Graph's calendarView/delta, for Meridian's shadow
 * calendar. A round is bound to the window of its first request (Graph encodes it in the links):
 * pages are followed through `@odata.nextLink` and the round ends with an `@odata.deltaLink`,
 * the token of the next sync. Graph answers with occurrences and exceptions of series, not
 * masters; the shadow keeps them as overrides of a master it does not hold, which it reads as
 * they are. Throttled pages are retried by the Graph client (Retry-After, core/retry.ts).
 */

export interface OutlookSyncResult {
  events: CalendarEvent[];
  /** Graph ids of deleted events and occurrences (`@removed`), or of ones that left the window. */
  deleted_ids: string[];
  /** The round's `@odata.deltaLink`: pass it to the next sync. */
  next_sync_token: string;
  /** The result is the whole window (no link given, or Graph lost the round's state): replace. */
  full_resync: boolean;
}

interface DeltaPage {
  value: (GraphEvent & { '@removed'?: { reason?: string } })[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

/** Graph's recommended page size for delta rounds is its default; ask for a bounded one. */
const PAGE_SIZE = 100;
/** When no window is given (a caller outside the shadow sync): the shadow's default span. */
const DEFAULT_WINDOW_DAYS = { back: 30, ahead: 187 };

/**
 * Lists what changed since `deltaLink`, or starts a new round over `window` when there is none
 * or Graph answers 410 (`syncStateNotFound`, `resyncRequired`): then `full_resync` is true.
 *
 * @example
 * const first = await syncCalendarView(graph, ref, path, undefined, window);
 * const later = await syncCalendarView(graph, ref, path, first.next_sync_token);
 */
export async function syncCalendarView(
  graph: GraphClient,
  calendar: CalendarRef,
  calendarPath: string,
  deltaLink: string | undefined,
  window: { fromMs: number; toMs: number } | undefined,
  /** The signed-in account: its attendee entry is marked `self` (a declined event is free time). */
  owner?: string,
): Promise<OutlookSyncResult> {
  if (deltaLink) {
    try {
      return await round(graph, calendar, { path: deltaLink }, false, owner);
    } catch (error) {
      if (!(isDomainError(error) && isLostState(error.details))) throw error;
    }
  }
  const now = Date.now();
  const span = window ?? {
    fromMs: now - DEFAULT_WINDOW_DAYS.back * 86_400_000,
    toMs: now + DEFAULT_WINDOW_DAYS.ahead * 86_400_000,
  };
  const first = {
    path: `${calendarPath}/calendarView/delta`,
    query: {
      startDateTime: new Date(span.fromMs).toISOString(),
      endDateTime: new Date(span.toMs).toISOString(),
    },
  };
  return round(graph, calendar, first, true, owner);
}

function isLostState(details: Record<string, unknown>): boolean {
  return (
    details.status === 410 ||
    ['syncStateNotFound', 'resyncRequired', 'syncStateInvalid'].includes(String(details.reason))
  );
}

async function round(
  graph: GraphClient,
  calendar: CalendarRef,
  first: { path: string; query?: Record<string, string> },
  full: boolean,
  owner: string | undefined,
): Promise<OutlookSyncResult> {
  const result: OutlookSyncResult = { events: [], deleted_ids: [], next_sync_token: '', full_resync: full };
  let request: { path: string; query?: Record<string, string> } | undefined = first;
  while (request) {
    const page: DeltaPage = await graph.send<DeltaPage>({
      ...request,
      prefer: [`odata.maxpagesize=${PAGE_SIZE}`],
      subject: `Calendar "${calendar.calendar_id}"`,
    });
    for (const item of page.value) {
      if (item['@removed'] || item.isCancelled) result.deleted_ids.push(item.id);
      else result.events.push(toCalendarEvent(item, calendar, owner));
    }
    if (page['@odata.nextLink']) request = { path: page['@odata.nextLink'] };
    else {
      if (!page['@odata.deltaLink']) {
        throw new DomainError(
          'PROVIDER_ERROR',
          'Outlook ended a sync without a delta link. Try again later.',
        );
      }
      result.next_sync_token = page['@odata.deltaLink'];
      request = undefined;
    }
  }
  return result;
}
