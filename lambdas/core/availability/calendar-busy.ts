import type { Principal } from '../access/rights.js';
import { blocksTime, eventIntervals, type Interval } from '../calendar/busy-intervals.js';
import type { CalendarRecord } from '../calendar/calendar-registry.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import type { CalendarEvent } from '../calendar/event.js';
import type { CallWork } from '../call-work.js';
import { DomainError } from '../errors.js';
import type { ShadowCalendar } from '../ports/index.js';
import { clampedIso } from '../time/instants.js';

/** Where an availability answer came from, so a caller can judge how current it is. */
export interface ViewFreshness {
  calendar_id: string;
  /** `shadow`: Meridian's synced copy; `live`: read from the provider just now. */
  source: 'shadow' | 'live';
  /** When the shadow was last synced (shadow only). */
  synced_at?: string;
  age_seconds?: number;
}

export interface CalendarBusy {
  calendar_id: string;
  zone: string;
  intervals: (Interval & { event_id?: string })[];
  freshness: ViewFreshness;
}

/** Active booking holds of a calendar (book_slot's locks): they make a slot unavailable too. */
export type ActiveHolds = (
  calendarId: string,
) => Promise<{ start_ms: number; end_ms: number; booked?: { event_id: string } }[]>;

type BusyDeps = { calendars: CalendarService; shadow: ShadowCalendar };

const MAX_LIVE_EVENTS = 2500;

/**
 * TOO_MANY_OCCURRENCES: the calendar has more events in the window than one answer reads (more
 * than MAX_LIVE_EVENTS, or a series past MAX_SERIES_INSTANCES), so time missing from the read
 * may be busy: refuse rather than call it free.
 */
function tooManyOccurrences(calendarId: string, from: number, to: number): DomainError {
  return new DomainError(
    'TOO_MANY_OCCURRENCES',
    `${calendarId} has more events between ${new Date(from).toISOString()} and ${new Date(to).toISOString()} ` +
      'than Meridian reads for one answer (often a recurring event that repeats every minute or second), so ' +
      'its free time there is unknown. Ask about a shorter window, e.g. one hour, or find the series with list_events.',
    { calendar_id: calendarId },
  );
}

/** Every event of an already-authorised calendar in the window, page by page, up to a bound. */
async function liveEvents(
  service: CalendarService,
  record: CalendarRecord,
  from: number,
  to: number,
  work: CallWork | undefined,
) {
  const { provider, ref } = await service.providerFor(record);
  const events: CalendarEvent[] = [];
  let pageToken: string | undefined;
  do {
    const page = await provider.listEvents(ref, {
      start: clampedIso(from),
      end: clampedIso(to),
      single_events: true,
      max_results: 500,
      ...(pageToken ? { page_token: pageToken } : {}),
      ...(work ? { work } : {}),
    });
    events.push(...page.events);
    if (page.incomplete) throw tooManyOccurrences(record.calendar_id, from, to);
    pageToken = page.next_page_token;
  } while (pageToken && events.length < MAX_LIVE_EVENTS);
  if (pageToken) throw tooManyOccurrences(record.calendar_id, from, to);
  return events;
}

/**
 * The busy time of one calendar over [from, to), after checking the principal may read it: from
 * the shadow calendar when its synced window covers the range (no provider round trip), else
 * live from the provider. Free (transparent), cancelled and declined events never block.
 * TOO_MANY_OCCURRENCES when the events in the window are more than one answer reads.
 */
export async function calendarBusy(
  deps: BusyDeps,
  principal: Principal,
  calendarId: string,
  from: number,
  to: number,
  work?: CallWork,
): Promise<CalendarBusy> {
  // The grant first: a caller without it reads nothing.
  await deps.calendars.requireRight(principal, calendarId, 'read');
  return busyOfReadable(deps, calendarId, from, to, work);
}

/**
 * {@link calendarBusy} and the calendar's active booking holds, both read once the grant is
 * checked, side by side: check_availability and SLOT_TAKEN's suggestions count both as busy.
 */
export async function calendarBusyAndHolds(
  deps: BusyDeps & { activeHolds: ActiveHolds },
  principal: Principal,
  calendarId: string,
  from: number,
  to: number,
  work?: CallWork,
): Promise<{ busy: CalendarBusy; holds: Awaited<ReturnType<ActiveHolds>> }> {
  // The grant is most often answered from the key's own read (no round trip); a caller without
  // it is refused before the holds are read too.
  await deps.calendars.requireRight(principal, calendarId, 'read');
  const [busy, holds] = await Promise.all([
    busyOfReadable(deps, calendarId, from, to, work),
    deps.activeHolds(calendarId),
  ]);
  return { busy, holds };
}

/** The busy time of a calendar whose read grant has been checked. */
async function busyOfReadable(
  deps: BusyDeps,
  calendarId: string,
  from: number,
  to: number,
  work: CallWork | undefined,
): Promise<CalendarBusy> {
  // The record comes with the shadow's answer, read beside it (one round trip for a connected
  // calendar, and for a native one).
  const shadow = await deps.shadow.busyIntervals(calendarId, from, to, work);
  const record = shadow.calendar;
  const zone = record.time_zone ?? deps.calendars.zone;
  if (shadow.synced_at) {
    if (shadow.incomplete) throw tooManyOccurrences(calendarId, from, to);
    const age = Math.max(
      0,
      Math.round((deps.calendars.deps.clock.now().getTime() - Date.parse(shadow.synced_at)) / 1000),
    );
    return {
      calendar_id: calendarId,
      zone,
      intervals: shadow.intervals,
      freshness: { calendar_id: calendarId, source: 'shadow', synced_at: shadow.synced_at, age_seconds: age },
    };
  }
  const blocking = (await liveEvents(deps.calendars, record, from, to, work)).filter((e) => blocksTime(e));
  return {
    calendar_id: calendarId,
    zone,
    intervals: eventIntervals(blocking, zone).map((interval, i) => ({
      ...interval,
      event_id: blocking[i]!.id,
    })),
    freshness: { calendar_id: calendarId, source: 'live' },
  };
}
