import { blocksTime } from '../calendar/busy-intervals.js';
import type { CalendarEvent } from '../calendar/event.js';
import { eventTimeMs } from '../calendar/event-times.js';
import { type CallWork, isWorkStop, NARROW_CALENDAR_READ } from '../call-work.js';
import { isDomainError } from '../errors.js';
import type { BusyInterval } from '../ports/index.js';
import { TurnSharer } from '../turns.js';
import { READ_SLACK_MS, type ShadowEntries } from './shadow-store.js';

/**
 * The busy intervals of stored shadow entries that overlap `[fromMs, toMs)`, sorted by start:
 * series expanded with their edited and cancelled occurrences, all-day events placed in `zone`,
 * and only events that block time (not cancelled, not marked free, not declined by the owner, not
 * zero-length). `complete` is false when a series has more occurrences near the window than one
 * expansion gives (MAX_SERIES_INSTANCES): the intervals then miss some of its busy time.
 *
 * Overrides whose master is not stored (an invitation to single occurrences of someone else's
 * series) count as the one-off events they are.
 *
 * @example
 * await busyFromEntries(await shadowStore.readWindow(id, from, to), from, to, 'Europe/Paris');
 * // { intervals: [{ start: 1773655200000, end: 1773658800000, event_id: 'abc' }], complete: true }
 */
export async function busyFromEntries(
  entries: ShadowEntries,
  fromMs: number,
  toMs: number,
  zone: string,
  work?: CallWork,
): Promise<{ intervals: BusyInterval[]; complete: boolean }> {
  const { events, complete } = await eventsFromEntries(entries, fromMs, toMs, zone, work);
  const intervals = events
    .filter((event) => blocksTime(event))
    .map((event) => ({
      start: eventTimeMs(event.start, zone),
      end: eventTimeMs(event.end, zone),
      event_id: event.id,
    }))
    .filter((interval) => interval.end > interval.start && interval.start < toMs && interval.end > fromMs)
    .sort((a, b) => a.start - b.start || a.end - b.end || a.event_id.localeCompare(b.event_id));
  return { intervals, complete };
}

/**
 * The events of stored shadow entries near `[fromMs, toMs)`: one-offs as stored, series expanded
 * with their edited and cancelled occurrences, overrides of a master not stored as one-offs. Not
 * filtered to the window: all-day dates are placed in `zone` by the caller. `complete` as in
 * {@link busyFromEntries}. Timesheet rules read the same events (core/rules/rule-events.ts).
 */
export async function eventsFromEntries(
  entries: ShadowEntries,
  fromMs: number,
  toMs: number,
  zone: string,
  work?: CallWork,
): Promise<{ events: CalendarEvent[]; complete: boolean }> {
  const overridesOf = new Map<string, CalendarEvent[]>();
  for (const override of entries.overrides) {
    const masterId = override.recurring_event_id ?? '';
    overridesOf.set(masterId, [...(overridesOf.get(masterId) ?? []), override]);
  }
  work?.spend(
    entries.singles.length + entries.series.length + entries.overrides.length,
    NARROW_CALENDAR_READ,
  );
  const events: CalendarEvent[] = [...entries.singles];
  const masters = new Set<string>();
  let complete = true;
  const turns = work ?? new TurnSharer();
  for (const master of entries.series) {
    await turns.pass();
    masters.add(master.id);
    const series = { master, overrides: overridesOf.get(master.id) ?? [] };
    // All-day dates expand in UTC and are placed in the zone below, so a series with any is
    // widened like the read; timed ones are not, lest a dense rule spend its expansion before
    // the window.
    const allDay = [master, ...series.overrides].some((event) => 'date' in event.start);
    const slack = allDay ? READ_SLACK_MS : 0;
    // Loaded here, not at import: a window with no series never pays for the recurrence code.
    const { expandSeriesSharing, expandSeriesWithin } = await import('../calendar/series.js');
    try {
      const expanded = work
        ? await expandSeriesSharing(series, fromMs - slack, toMs + slack, zone, { work })
        : expandSeriesWithin(series, fromMs - slack, toMs + slack, zone);
      events.push(...expanded.events);
      complete &&= expanded.complete;
    } catch (error) {
      // A rule this code cannot expand (another client's RRULE): its first occurrence still counts.
      // The call's own bound or cancellation is not the rule's fault: it ends the call.
      if (!isDomainError(error) || isWorkStop(error)) throw error;
      events.push(master);
    }
  }
  for (const [masterId, orphans] of overridesOf) if (!masters.has(masterId)) events.push(...orphans);
  return { events, complete };
}
