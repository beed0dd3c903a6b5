import type { CalendarEvent, EventTime } from '../../lambdas/core/calendar/event.js';
import type { CalendarProvider, CalendarRef, EventQuery } from '../../lambdas/core/ports/index.js';

/** Shared pieces of the CalendarProvider contract suite (see calendar-provider-contract.ts). */

export interface ContractSubject {
  provider: CalendarProvider;
  /** An empty calendar the tests may fill. */
  calendar: CalendarRef;
  /** The address of the calendar's owner: the attendee the provider marks `self`. */
  owner_email?: string;
  close(): Promise<void>;
  /**
   * The most frequent recurrence the provider stores. Outlook repeats daily at the least (Graph
   * has no hourly pattern, and the adapter refuses FREQ=HOURLY): where the suite only needs a
   * second endless series, such a provider gets a daily one. @default 'HOURLY'
   */
  finestFrequency?: 'HOURLY' | 'DAILY';
}

export const ZONE = 'America/New_York';

/** A timed EventTime in {@link ZONE}. */
export const at = (date_time: string): EventTime => ({ date_time, time_zone: ZONE });

/** An EventTime as a comparable string: the UTC instant, or the date of an all-day time. */
export const utc = (time: EventTime): string =>
  'date' in time ? time.date : new Date(time.date_time).toISOString();

/**
 * Every event of a window, following page tokens (expanded instances unless `extra` says otherwise).
 *
 * @example
 * const events = await listAllEvents(provider, calendar, { start: '2026-03-01T00:00:00Z', end: '2026-04-01T00:00:00Z' });
 */
export async function listAllEvents(
  provider: CalendarProvider,
  calendar: CalendarRef,
  window: { start: string; end: string },
  extra: Partial<EventQuery> = {},
): Promise<CalendarEvent[]> {
  const events: CalendarEvent[] = [];
  let page_token: string | undefined;
  for (let pages = 0; pages < 100; pages += 1) {
    const page = await provider.listEvents(calendar, {
      ...window,
      single_events: true,
      max_results: 50,
      ...extra,
      page_token,
    });
    events.push(...page.events);
    page_token = page.next_page_token;
    if (!page_token) return events;
  }
  throw new Error('more than 100 pages: the provider keeps returning a page token');
}
