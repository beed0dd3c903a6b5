import ICAL from 'ical.js';
import type { EventTime } from '../../core/calendar/event.js';
import { DomainError } from '../../core/errors.js';
import { formatInstant, parseInstant } from '../../core/time/instants.js';
import { DateTime, IANAZone } from '../../core/time/luxon.js';
import { RFC_5545, wallClockToInstant } from '../../core/time/wall-clock-to-instant.js';

/**
 * EventTime ⇄ iCalendar DATE / DATE-TIME properties (DTSTART, DTEND, RECURRENCE-ID).
 *
 * Writing: an all-day time is `VALUE=DATE`; a time with `time_zone` is `DTSTART;TZID=<IANA>:<wall
 * clock>` (the resource carries a VTIMEZONE built by vtimezone.ts), so a recurring series keeps its
 * wall-clock time across DST in every client; a time without a zone is written in UTC (`…Z`),
 * which every client reads the same way.
 *
 * Reading: an IANA TZID is resolved with luxon (the zone database Meridian uses everywhere); any
 * other TZID (e.g. Outlook's "W. Europe Standard Time") through the resource's own VTIMEZONE;
 * a floating time in the calendar's zone, else UTC.
 */

/**
 * Reads a DATE or DATE-TIME property as an EventTime.
 *
 * @example
 * readEventTime(ICAL.Property.fromString('DTSTART;TZID=Europe/Paris:20260310T090000'));
 * // { date_time: '2026-03-10T09:00:00+01:00', time_zone: 'Europe/Paris' }
 */
export function readEventTime(property: ICAL.Property, fallbackZone?: string): EventTime {
  const time = property.getFirstValue() as ICAL.Time;
  if (time.isDate) return { date: time.toString() };
  const wall = {
    year: time.year,
    month: time.month,
    day: time.day,
    hour: time.hour,
    minute: time.minute,
    second: time.second,
  };
  if (time.zone === ICAL.Timezone.utcTimezone) {
    return { date_time: formatInstant(DateTime.fromObject(wall, { zone: 'utc' })) };
  }
  const tzid = property.getFirstParameter('tzid');
  if (tzid && IANAZone.isValidZone(tzid)) {
    return { date_time: formatInstant(placeWallClock(wall, tzid)), time_zone: tzid };
  }
  if (tzid && time.zone && time.zone !== ICAL.Timezone.localTimezone) {
    const utc = DateTime.fromSeconds(time.toUnixTime(), { zone: 'utc' });
    return { date_time: formatInstant(utc) };
  }
  // Floating: the same wall clock everywhere. Placed in the calendar's zone, but not tagged with
  // it, so that a round trip does not claim a zone the author never chose.
  const zone = fallbackZone && IANAZone.isValidZone(fallbackZone) ? fallbackZone : 'utc';
  return { date_time: formatInstant(placeWallClock(wall, zone)) };
}

/** A wall-clock reading in an IANA zone, placed as RFC 5545 says (see wall-clock-to-instant.ts). */
function placeWallClock(
  wall: { year: number; month: number; day: number; hour: number; minute: number; second: number },
  zone: string,
): DateTime {
  const wallMs = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return DateTime.fromMillis(wallClockToInstant(wallMs, zone, RFC_5545), { zone });
}

/**
 * Sets `name` (dtstart, dtend, recurrence-id) on a VEVENT from an EventTime, replacing any value.
 * Throws INVALID_DATETIME / INVALID_TIMEZONE for values the caller must fix.
 *
 * @example
 * writeEventTime(vevent, 'dtstart', { date_time: '2026-03-10T09:00:00-04:00', time_zone: 'America/New_York' });
 * // DTSTART;TZID=America/New_York:20260310T090000
 */
export function writeEventTime(component: ICAL.Component, name: string, value: EventTime): void {
  component.removeAllProperties(name);
  const property = new ICAL.Property(name, component);
  if ('date' in value) {
    property.resetType('date');
    property.setValue(ICAL.Time.fromDateString(value.date));
  } else if (value.time_zone) {
    const zone = value.time_zone;
    if (!IANAZone.isValidZone(zone)) {
      throw new DomainError(
        'INVALID_TIMEZONE',
        `"${zone}" is not an IANA time zone, e.g. "America/New_York".`,
        {
          field: 'time_zone',
        },
      );
    }
    const local = parseInstant(value.date_time, name === 'dtend' ? 'end' : 'start').setZone(zone);
    property.setParameter('tzid', zone);
    property.setValue(ICAL.Time.fromData(wallOf(local)));
  } else {
    const utc = parseInstant(value.date_time, name === 'dtend' ? 'end' : 'start').toUTC();
    property.setValue(ICAL.Time.fromData(wallOf(utc), ICAL.Timezone.utcTimezone));
  }
  component.addProperty(property);
}

function wallOf(dt: DateTime): {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
} {
  return { year: dt.year, month: dt.month, day: dt.day, hour: dt.hour, minute: dt.minute, second: dt.second };
}
