import type { Principal } from '../access/rights.js';
import { calendarBusy, type ViewFreshness } from '../availability/calendar-busy.js';
import { isDomainError } from '../errors.js';
import type { ShadowCalendar } from '../shadow/shadow-calendar.js';
import { parseWindow } from '../time/window.js';
import { mergeIntervals } from './busy-intervals.js';
import type { CalendarService } from './calendar-service.js';

export interface CalendarBusyBlocks {
  calendar_id: string;
  busy: { start: string; end: string }[];
  freshness?: ViewFreshness;
  error?: { code: string; message: string };
}

/**
 * find_free_time: merged busy blocks per calendar over [start, end). Free (transparent),
 * cancelled and declined events do not block. Calendars default to every readable one; one that
 * cannot be read reports its error and the others still answer. Each answer says whether it came
 * from the synced shadow calendar (and how old it is) or live from the provider.
 */
export async function findFreeTime(
  deps: { calendars: CalendarService; shadow: ShadowCalendar },
  principal: Principal,
  input: { calendar_ids?: string[]; start: string; end: string },
): Promise<{ calendars: CalendarBusyBlocks[]; start: string; end: string }> {
  const { from, to } = parseWindow(input.start, input.end);
  const ids =
    input.calendar_ids ??
    (await deps.calendars.listCalendars(principal)).filter((c) => c.can_read).map((c) => c.id);
  const calendars = await Promise.all(
    ids.map(async (calendarId): Promise<CalendarBusyBlocks> => {
      try {
        const { intervals, freshness } = await calendarBusy(deps, principal, calendarId, from, to);
        const busy = mergeIntervals(intervals, from, to);
        return {
          calendar_id: calendarId,
          busy: busy.map((b) => ({
            start: new Date(b.start).toISOString(),
            end: new Date(b.end).toISOString(),
          })),
          freshness,
        };
      } catch (error) {
        if (!isDomainError(error)) throw error;
        return { calendar_id: calendarId, busy: [], error: { code: error.code, message: error.message } };
      }
    }),
  );
  return { calendars, start: new Date(from).toISOString(), end: new Date(to).toISOString() };
}
