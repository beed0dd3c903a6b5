import type { Principal } from '../access/rights.js';
import { calendarEventView } from '../calendar/calendar-event-views.js';
import type { CalendarRecord } from '../calendar/calendar-registry.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import type { EventView } from '../calendar/event-view.js';
import { MAX_WINDOW_DAYS } from '../calendar/event-window.js';
import { type CallWork, NARROW_CALENDAR_READ } from '../call-work.js';
import { CALENDARS_READ_AT_ONCE, mapWithConcurrency } from '../concurrency.js';
import { DomainError } from '../errors.js';
import { eventsFromEntries } from '../shadow/shadow-busy.js';
import { type ShadowStore, syncCovers } from '../shadow/shadow-store.js';
import { parseInstant } from '../time/instants.js';
import { checkWindow } from '../time/window.js';
import type { ClassifiableEvent } from './classifiable-event.js';
import { toClassifiable } from './to-classifiable.js';

/** One occurrence as rules and timesheets see it: the view, its calendar, and its facts. */
export interface RuleEvent {
  readonly view: EventView;
  readonly calendar: CalendarRecord;
  readonly facts: ClassifiableEvent;
  readonly startMs: number;
  readonly endMs: number;
}

export interface EventWindow {
  readonly from: number;
  readonly to: number;
}

const DAY_MS = 86_400_000;
/** Enough for 90 days of 50 busy calendars; past it a report asks for a narrower window. */
export const MAX_RULE_EVENTS = 100_000;
const PAGE = 2500;

/** How far a rules read reaches back from now and ahead of it when no window is given. */
export const DEFAULT_RULE_DAYS = 30;

/**
 * The window a rules call reads: the given bounds, else `days` before now to `days` after it, so
 * upcoming work is seen beside past work (issue 22: a rule matching only upcoming events was
 * "never matched"). With only `end`, `days` before it; with only `start`, `days` past the later
 * of start and now. INVALID_DATETIME / INVALID_INPUT name the field to fix.
 */
export function ruleWindow(
  now: Date,
  input: { start?: string | undefined; end?: string | undefined },
  days = DEFAULT_RULE_DAYS,
): EventWindow {
  const span = days * DAY_MS;
  const given = (text: string | undefined, field: 'start' | 'end') =>
    text ? parseInstant(text, field).toMillis() : undefined;
  const end = given(input.end, 'end');
  const from = given(input.start, 'start') ?? (end ?? now.getTime()) - span;
  const to = end ?? Math.max(from, now.getTime()) + span;
  return checkWindow(from, to, MAX_WINDOW_DAYS);
}

/**
 * Every occurrence in the window on the given calendars (each checked for read), else on every
 * calendar the principal may read: from the shadow for a connected calendar whose sync covers the
 * window, else the list_events path, paged through to the end. The calendar
 * owner (whose `response` rules read) is the attendee the provider marked `self`, else the
 * calendar's configured owner.
 */
export async function readRuleEvents(
  calendars: CalendarService,
  shadow: ShadowStore,
  principal: Principal,
  window: EventWindow,
  calendarIds?: readonly string[],
  work?: CallWork,
): Promise<{ events: RuleEvent[]; calendars: CalendarRecord[] }> {
  const records =
    calendarIds && calendarIds.length > 0
      ? await Promise.all(calendarIds.map((id) => calendars.calendarFor(principal, id, 'read')))
      : await calendars.requireReadableCalendars(principal);
  const perCalendar = await mapWithConcurrency(records, CALENDARS_READ_AT_ONCE, (record) =>
    readCalendar(calendars, shadow, record, window, work),
  );
  const events = perCalendar.flat();
  return { events, calendars: records };
}

async function readCalendar(
  calendars: CalendarService,
  shadow: ShadowStore,
  record: CalendarRecord,
  window: EventWindow,
  work: CallWork | undefined,
): Promise<RuleEvent[]> {
  // Native calendars live in the table already (their provider reads it); connected ones are
  // read from the shadow when it covers the window, sparing a provider round trip per page.
  if (record.provider !== 'native') {
    const shadowed = await readShadow(calendars, shadow, record, window, work);
    if (shadowed) return shadowed;
  }
  const { provider, ref } = await calendars.providerFor(record);
  const events: RuleEvent[] = [];
  let token: string | undefined;
  do {
    const page = await provider.listEvents(ref, {
      start: new Date(window.from).toISOString(),
      end: new Date(window.to).toISOString(),
      single_events: true,
      // A native read expands every series again for each page: ask for the whole window at once.
      max_results: record.provider === 'native' ? MAX_RULE_EVENTS + 1 : PAGE,
      ...(token ? { page_token: token } : {}),
      ...(work ? { work } : {}),
    });
    // Native pages were spent as they were expanded; other providers' events are spent as read.
    if (record.provider !== 'native') work?.spend(page.events.length, NARROW_CALENDAR_READ);
    for (const event of page.events) {
      await work?.pass();
      events.push(toRuleEvent(calendarEventView(calendars, record, event), record));
    }
    token = page.next_page_token;
    if (events.length > MAX_RULE_EVENTS) throw tooManyEvents();
  } while (token);
  return events;
}

/**
 * A connected calendar's occurrences in the window from its shadow; undefined (read the provider
 * instead) when the last sync did not cover the window or a series has more occurrences there
 * than one expansion gives.
 */
async function readShadow(
  calendars: CalendarService,
  shadow: ShadowStore,
  record: CalendarRecord,
  window: EventWindow,
  work: CallWork | undefined,
): Promise<RuleEvent[] | undefined> {
  if (!syncCovers(await shadow.readState(record.calendar_id), window.from, window.to)) return undefined;
  const zone = record.time_zone ?? calendars.zone;
  const entries = await shadow.readWindow(record.calendar_id, window.from, window.to);
  const { events, complete } = await eventsFromEntries(entries, window.from, window.to, zone, work);
  if (!complete) return undefined;
  // Overlap as list_events reads it: a zero-length event counts when it sits inside the window.
  const inWindow = events
    .filter((event) => event.status !== 'cancelled')
    .map((event) => toRuleEvent(calendarEventView(calendars, record, event), record))
    .filter(
      (e) =>
        e.startMs < window.to &&
        (e.endMs > window.from || (e.endMs === e.startMs && e.startMs >= window.from)),
    );
  if (inWindow.length > MAX_RULE_EVENTS) throw tooManyEvents();
  return inWindow;
}

/** The rule view of one event read from a calendar. */
export function toRuleEvent(view: EventView, calendar: CalendarRecord): RuleEvent {
  const ownerEmail = view.attendees.find((a) => a.self)?.email ?? calendar.owner_email;
  return {
    view,
    calendar,
    facts: toClassifiable(view, { name: calendar.name, ownerEmail }),
    startMs: Date.parse(view.start_utc),
    endMs: Date.parse(view.end_utc),
  };
}

function tooManyEvents(): DomainError {
  return new DomainError(
    'WORK_LIMIT_EXCEEDED',
    `More than ${MAX_RULE_EVENTS} events in the window on one calendar: narrow start/end or pass calendar_ids.`,
    { field: 'start', limit: MAX_RULE_EVENTS },
  );
}
