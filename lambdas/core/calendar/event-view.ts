import { formatInstant } from '../time/instants.js';
import { intlOffsetMs } from '../time/intl-offset.js';
import { DateTime } from '../time/luxon.js';
import { formatUtcMs, formatWithOffset } from '../time/recurrence/wall-clock-text.js';
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

/**
 * The ECMAScript date-time format with an offset, which Date.parse reads exactly and ~20× faster
 * than luxon; any other spelling luxon accepts still goes through luxon.
 */
const ECMA_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?(Z|[+-]\d{2}:\d{2})$/;

function instantMs(time: EventTime, zone: string): number {
  if ('date' in time) return wallClockToInstant(Date.parse(time.date), zone, RFC_5545);
  return ECMA_DATE_TIME.test(time.date_time)
    ? Date.parse(time.date_time)
    : DateTime.fromISO(time.date_time, { setZone: true }).toMillis();
}

/**
 * An instant as RFC 3339 in `zone`, the text formatInstant writes, from one Intl offset reading
 * and plain arithmetic: luxon's setZone and field formatting cost ~90 µs an event, which
 * dominated reading 18,000 events for a rules preview (bench/preview-rule.bench.ts).
 */
function localText(epochMs: number, zone: string): string {
  let offsetMs: number;
  try {
    offsetMs = intlOffsetMs(zone, epochMs);
  } catch {
    // A zone name Intl does not know (another client's data): luxon says why, as before.
    return formatInstant(DateTime.fromMillis(epochMs, { zone }));
  }
  return formatWithOffset(epochMs, offsetMs);
}

function checked(epochMs: number): number {
  // An unreadable date_time: the same refusal formatInstant gives an invalid DateTime.
  if (!Number.isFinite(epochMs)) formatInstant(DateTime.invalid('unparsable date_time'));
  return epochMs;
}

/**
 * The view with its local times in `zone` (the caller's, asked of list_events), which `time_zone`
 * then names; the stored `start`/`end` keep the event's own zone. All-day events keep their dates.
 */
export function inZone(view: EventView, zone: string | undefined): EventView {
  if (zone === undefined || view.all_day || zone === view.time_zone) return view;
  return {
    ...view,
    start_local: localText(Date.parse(view.start_utc), zone),
    end_local: localText(Date.parse(view.end_utc), zone),
    time_zone: zone,
  };
}

export function toEventView(event: CalendarEvent, fallbackZone: string): EventView {
  const zone = ('time_zone' in event.start && event.start.time_zone) || fallbackZone;
  const allDay = 'date' in event.start;
  const start = checked(instantMs(event.start, zone));
  const end = checked(instantMs(event.end, zone));
  return {
    ...event,
    start_utc: formatUtcMs(start),
    end_utc: formatUtcMs(end),
    start_local: allDay ? (event.start as { date: string }).date : localText(start, zone),
    end_local: allDay ? (event.end as { date: string }).date : localText(end, zone),
    time_zone: zone,
    all_day: allDay,
  };
}
