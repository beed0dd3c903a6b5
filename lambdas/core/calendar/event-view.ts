import { DateTime } from 'luxon';
import { formatInstant, formatUtc } from '../time/instants.js';
import { RFC_5545, wallClockToInstant } from '../time/wall-clock-to-instant.js';
import type { CalendarEvent, EventTime } from './event.js';

/** An event as the tools return it: the stored fields plus its start and end in UTC and local time. */
export type EventView = CalendarEvent & {
  start_utc: string;
  end_utc: string;
  /** In the event's own zone, else the calendar's, else the default; all-day events give the date. */
  start_local: string;
  end_local: string;
  time_zone: string;
  all_day: boolean;
};

function instantOf(time: EventTime, zone: string): DateTime {
  return 'date' in time
    ? DateTime.fromMillis(wallClockToInstant(Date.parse(time.date), zone, RFC_5545), { zone })
    : DateTime.fromISO(time.date_time, { setZone: true });
}

/**
 * Adds UTC and local renderings so a caller never converts by hand. All-day events begin at
 * local midnight of their zone.
 */
export function toEventView(event: CalendarEvent, fallbackZone: string): EventView {
  const zone = ('time_zone' in event.start && event.start.time_zone) || fallbackZone;
  const allDay = 'date' in event.start;
  const start = instantOf(event.start, zone);
  const end = instantOf(event.end, zone);
  return {
    ...event,
    start_utc: formatUtc(start),
    end_utc: formatUtc(end),
    start_local: allDay ? (event.start as { date: string }).date : formatInstant(start.setZone(zone)),
    end_local: allDay ? (event.end as { date: string }).date : formatInstant(end.setZone(zone)),
    time_zone: zone,
    all_day: allDay,
  };
}
