import type { Principal } from '../access/rights.js';
import { DomainError, isDomainError } from '../errors.js';
import { blocksTime, eventIntervals, mergeIntervals } from './busy-intervals.js';
import type { CalendarService } from './calendar-service.js';
import type { CalendarEvent } from './event.js';

export interface CalendarBusy {
  calendar_id: string;
  busy: { start: string; end: string }[];
  error?: { code: string; message: string };
}

/** Most events read per calendar for one free/busy answer. */
const MAX_EVENTS = 2500;

async function eventsIn(
  service: CalendarService,
  principal: Principal,
  calendarId: string,
  start: string,
  end: string,
) {
  const record = await service.calendarFor(principal, calendarId, 'read');
  const { provider, ref } = await service.providerFor(record);
  const events: CalendarEvent[] = [];
  let pageToken: string | undefined;
  do {
    const page = await provider.listEvents(ref, {
      start,
      end,
      single_events: true,
      max_results: 500,
      ...(pageToken ? { page_token: pageToken } : {}),
    });
    events.push(...page.events);
    pageToken = page.next_page_token;
  } while (pageToken && events.length < MAX_EVENTS);
  return { record, events };
}

/**
 * find_free_time: merged busy blocks per calendar over [start, end). Free (transparent),
 * cancelled and declined events do not block. Calendars default to every readable one; one that
 * cannot be read reports its error and the others still answer.
 */
export async function findFreeTime(
  service: CalendarService,
  principal: Principal,
  input: { calendar_ids?: string[]; start: string; end: string },
): Promise<{ calendars: CalendarBusy[]; start: string; end: string }> {
  const from = Date.parse(input.start);
  const to = Date.parse(input.end);
  if (!(to > from)) throw new DomainError('INVALID_INPUT', '"end" must be after "start".', { field: 'end' });
  const ids =
    input.calendar_ids ?? (await service.listCalendars(principal)).filter((c) => c.can_read).map((c) => c.id);
  const calendars = await Promise.all(
    ids.map(async (calendarId): Promise<CalendarBusy> => {
      try {
        const { record, events } = await eventsIn(service, principal, calendarId, input.start, input.end);
        const zone = record.time_zone ?? service.zone;
        const busy = mergeIntervals(
          eventIntervals(
            events.filter((e) => blocksTime(e)),
            zone,
          ),
          from,
          to,
        );
        return {
          calendar_id: calendarId,
          busy: busy.map((b) => ({
            start: new Date(b.start).toISOString(),
            end: new Date(b.end).toISOString(),
          })),
        };
      } catch (error) {
        if (!isDomainError(error)) throw error;
        return { calendar_id: calendarId, busy: [], error: { code: error.code, message: error.message } };
      }
    }),
  );
  return { calendars, start: new Date(from).toISOString(), end: new Date(to).toISOString() };
}
