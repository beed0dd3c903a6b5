import type { Principal } from '../access/rights.js';
import { calendarBusy, type ViewFreshness } from '../availability/calendar-busy.js';
import { type LocalSpan, localSpan } from '../availability/local-span.js';
import { CallStoppedError, type CallWork, isWorkStop, NARROW_CALENDAR_READ } from '../call-work.js';
import { CALENDARS_READ_AT_ONCE, mapWithConcurrency } from '../concurrency.js';
import { isDomainError } from '../errors.js';
import type { ShadowCalendar } from '../ports/index.js';
import { parseWindow } from '../time/window.js';
import { mergeIntervals } from './busy-intervals.js';
import type { CalendarService } from './calendar-service.js';

export interface CalendarBusyBlocks {
  calendar_id: string;
  /** The zone of the `*_local` times: the calendar's. */
  timezone?: string;
  busy: LocalSpan[];
  freshness?: ViewFreshness;
  error?: { code: string; message: string };
}

/**
 * Busy blocks one answer lists, over all its calendars: about 150 bytes each in JSON, so an answer
 * stays near 300 KB (a year of 30 dense calendars was a 20 MB answer).
 */
export const MAX_BUSY_BLOCKS = 2000;

/**
 * find_free_time: merged busy blocks per calendar over [start, end), in UTC and on the
 * calendar's wall clock. Free (transparent), cancelled and declined events do not block.
 * Calendars default to every readable one (none is FORBIDDEN); one that cannot be read reports
 * its error and the others still answer. Each answer says whether it came
 * from the synced shadow calendar (and how old it is) or live from the provider.
 */
export async function findFreeTime(
  deps: { calendars: CalendarService; shadow: ShadowCalendar },
  principal: Principal,
  input: { calendar_ids?: string[]; start: string; end: string },
  work?: CallWork,
): Promise<{ calendars: CalendarBusyBlocks[]; start: string; end: string }> {
  const { from, to } = parseWindow(input.start, input.end);
  const ids =
    input.calendar_ids ??
    (await deps.calendars.requireReadableCalendars(principal)).map((calendar) => calendar.calendar_id);
  let blocks = 0;
  const calendars = await mapWithConcurrency(
    ids,
    CALENDARS_READ_AT_ONCE,
    async (calendarId): Promise<CalendarBusyBlocks> => {
      try {
        const { intervals, freshness, zone } = await calendarBusy(
          deps,
          principal,
          calendarId,
          from,
          to,
          work,
        );
        const busy = mergeIntervals(intervals, from, to);
        blocks += busy.length;
        if (blocks > MAX_BUSY_BLOCKS) throw tooManyBlocks();
        return {
          calendar_id: calendarId,
          timezone: zone,
          busy: busy.map((b) => localSpan(b.start, b.end, zone)),
          freshness,
        };
      } catch (error) {
        if (!isDomainError(error) || isWorkStop(error)) throw error;
        return { calendar_id: calendarId, busy: [], error: { code: error.code, message: error.message } };
      }
    },
  );
  return { calendars, start: new Date(from).toISOString(), end: new Date(to).toISOString() };
}

function tooManyBlocks(): CallStoppedError {
  return new CallStoppedError(
    'WORK_LIMIT_EXCEEDED',
    `The busy time asked for has more than ${MAX_BUSY_BLOCKS} blocks (the most one answer lists). ${NARROW_CALENDAR_READ}`,
    { bound: MAX_BUSY_BLOCKS, unit: 'busy blocks', narrow: NARROW_CALENDAR_READ },
  );
}
