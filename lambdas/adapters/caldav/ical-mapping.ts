import ICAL from 'ical.js';
import type { CalendarEvent, EventTime } from '../../core/calendar/event.js';
import { instanceId, originalKey } from '../../core/calendar/event-times.js';
import { markSelf } from '../../core/calendar/owner-attendee.js';
import { DomainError } from '../../core/errors.js';
import { formatInstant } from '../../core/time/instants.js';
import { DateTime } from '../../core/time/luxon.js';
import {
  readAttendees,
  readColorId,
  readOrganizer,
  readReminders,
  readStatus,
  readTransparency,
  readVisibility,
  setText,
  writeAttendees,
  writeColorId,
  writeOrganizer,
  writeReminders,
  writeStatus,
  writeTransparency,
  writeVisibility,
} from './ical-properties.js';
import { readEventTime, writeEventTime } from './ical-time.js';
import { withOccurrenceEtags } from './occurrence-etags.js';

/**
 * One CalDAV calendar object resource (a VCALENDAR) ⇄ Meridian events. A resource holds one
 * event, or one series: a master VEVENT (RRULE/EXDATE/RDATE) plus override VEVENTs that carry a
 * RECURRENCE-ID (RFC 4791 §4.1). Writing patches the resource's existing components, so
 * properties Meridian does not model (CATEGORIES, ATTACH, X-…) written by other clients survive.
 */

/** What a resource holds, read as Meridian events stamped with the calendar id and the ETag. */
export interface ParsedResource {
  uid: string;
  /** The VEVENT without RECURRENCE-ID; absent when the resource holds only overrides. */
  master?: CalendarEvent;
  overrides: CalendarEvent[];
}

export interface ReadContext {
  calendarId: string;
  etag: string;
  /** Zone for floating times: the calendar's. */
  zone?: string;
  /** The account owner's addresses: their ATTENDEE entry is marked `self` (see markSelf). */
  owner?: readonly string[];
}

const RECURRENCE_PROPERTIES = ['rrule', 'rdate', 'exdate', 'exrule'];

/**
 * Parses iCalendar text; PROVIDER_ERROR when the server handed back something unreadable.
 *
 * @example
 * parseCalendar('BEGIN:VCALENDAR\r\n…END:VCALENDAR').getAllSubcomponents('vevent');
 */
export function parseCalendar(data: string): ICAL.Component {
  try {
    const root = new ICAL.Component(ICAL.parse(data));
    if (root.name !== 'vcalendar') throw new Error(`expected VCALENDAR, got ${root.name}`);
    return root;
  } catch (error) {
    throw new DomainError(
      'PROVIDER_ERROR',
      'The CalDAV server returned a calendar object that is not valid iCalendar.',
      {},
      { cause: error },
    );
  }
}

/**
 * Reads a VCALENDAR resource.
 *
 * @example
 * const parsed = parseResource(icsText, { calendarId: 'caldav/c1/work', etag: '"abc"' });
 * parsed.master?.recurrence; // ['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;TZID=Europe/Paris:20260317T090000']
 */
export function parseResource(data: string | ICAL.Component, context: ReadContext): ParsedResource {
  const root = typeof data === 'string' ? parseCalendar(data) : data;
  const vevents = root.getAllSubcomponents('vevent');
  const uid = String(vevents[0]?.getFirstPropertyValue('uid') ?? '');
  if (!uid) throw new DomainError('PROVIDER_ERROR', 'The CalDAV calendar object has no VEVENT with a UID.');
  const masterComponent = vevents.find((v) => !v.hasProperty('recurrence-id'));
  const master = masterComponent ? readVevent(masterComponent, uid, context) : undefined;
  const overrides = vevents
    .filter((v) => v.hasProperty('recurrence-id'))
    .map((v) => {
      const event = readVevent(v, uid, context);
      const original = readEventTime(v.getFirstProperty('recurrence-id')!, context.zone);
      return { ...event, id: instanceId(uid, original), recurring_event_id: uid, original_start: original };
    });
  return withOccurrenceEtags({ uid, ...(master ? { master } : {}), overrides });
}

function readVevent(vevent: ICAL.Component, uid: string, context: ReadContext): CalendarEvent {
  const start = readEventTime(requireProperty(vevent, 'dtstart'), context.zone);
  const recurrence = RECURRENCE_PROPERTIES.flatMap((name) =>
    vevent.getAllProperties(name).map((p) => p.toICALString()),
  );
  const optional = {
    description: stringValue(vevent, 'description'),
    location: stringValue(vevent, 'location'),
    organizer: readOrganizer(vevent),
    reminders: readReminders(vevent),
    color_id: readColorId(vevent),
    recurrence: recurrence.length > 0 ? recurrence : undefined,
    created: utcStamp(vevent, 'created'),
    updated: utcStamp(vevent, 'last-modified') ?? utcStamp(vevent, 'dtstamp'),
  };
  return {
    id: uid,
    calendar_id: context.calendarId,
    summary: stringValue(vevent, 'summary') ?? '',
    start,
    end: readEnd(vevent, start, context.zone),
    status: readStatus(vevent),
    transparency: readTransparency(vevent),
    visibility: readVisibility(vevent),
    attendees: markSelf(readAttendees(vevent), context.owner ?? []),
    etag: context.etag,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}

function requireProperty(vevent: ICAL.Component, name: string): ICAL.Property {
  const property = vevent.getFirstProperty(name);
  if (!property)
    throw new DomainError('PROVIDER_ERROR', `A VEVENT on the CalDAV server has no ${name.toUpperCase()}.`);
  return property;
}

/** DTEND, else DTSTART + DURATION, else RFC 5545's defaults: one day (all-day) or zero length. */
function readEnd(vevent: ICAL.Component, start: EventTime, zone?: string): EventTime {
  const dtend = vevent.getFirstProperty('dtend');
  if (dtend) return readEventTime(dtend, zone);
  const duration = vevent.getFirstPropertyValue('duration');
  const seconds = duration instanceof ICAL.Duration ? duration.toSeconds() : undefined;
  if ('date' in start) {
    const days = seconds === undefined ? 1 : Math.max(1, Math.round(seconds / 86_400));
    return { date: DateTime.fromISO(start.date, { zone: 'utc' }).plus({ days }).toISODate()! };
  }
  const at = DateTime.fromISO(start.date_time, { setZone: true }).plus({ seconds: seconds ?? 0 });
  return { ...start, date_time: formatInstant(at) };
}

function stringValue(component: ICAL.Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function utcStamp(component: ICAL.Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name);
  if (!(value instanceof ICAL.Time)) return undefined;
  return formatInstant(DateTime.fromSeconds(value.toUnixTime(), { zone: 'utc' }));
}

export interface WriteContext {
  now: Date;
  /** The account's address, for ORGANIZER of new events with attendees and EMAIL alarms. */
  accountEmail?: string;
}

/**
 * Writes Meridian's fields onto a VEVENT, keeping the properties it does not model. Fields left
 * undefined that Meridian may not have understood (reminders, colour) keep the stored value.
 *
 * @example
 * writeVevent(new ICAL.Component('vevent'), event, { now: new Date(), accountEmail: 'alice@example.com' });
 */
export function writeVevent(vevent: ICAL.Component, event: CalendarEvent, context: WriteContext): void {
  const now = ICAL.Time.fromJSDate(context.now, true);
  setText(vevent, 'uid', event.recurring_event_id ?? event.id);
  vevent.updatePropertyWithValue('dtstamp', now);
  vevent.updatePropertyWithValue('last-modified', now);
  if (!vevent.hasProperty('created')) vevent.updatePropertyWithValue('created', now);
  setText(vevent, 'summary', event.summary);
  setText(vevent, 'description', event.description);
  setText(vevent, 'location', event.location);
  writeEventTime(vevent, 'dtstart', event.start);
  vevent.removeAllProperties('duration');
  writeEventTime(vevent, 'dtend', event.end);
  writeStatus(vevent, event.status);
  writeTransparency(vevent, event.transparency);
  writeVisibility(vevent, event.visibility);
  writeAttendees(vevent, event.attendees);
  // RFC 5545 wants an ORGANIZER on an event with attendees; an existing one (a meeting someone
  // else organises) is never replaced.
  if (event.attendees.length > 0 && !vevent.hasProperty('organizer') && context.accountEmail) {
    writeOrganizer(vevent, context.accountEmail);
  }
  if (event.reminders) writeReminders(vevent, event.reminders, event.summary, context.accountEmail);
  if (event.color_id) writeColorId(vevent, event.color_id);
  if (event.original_start) writeEventTime(vevent, 'recurrence-id', event.original_start);
  else writeRecurrence(vevent, event.recurrence ?? []);
}

function writeRecurrence(vevent: ICAL.Component, lines: readonly string[]): void {
  for (const name of RECURRENCE_PROPERTIES) vevent.removeAllProperties(name);
  for (const line of lines) {
    const name = line.slice(0, line.search(/[:;]/)).toLowerCase();
    if (!RECURRENCE_PROPERTIES.includes(name)) {
      throw new DomainError(
        'INVALID_RRULE',
        `"${line}" is not a recurrence line: use RRULE:, EXDATE: or RDATE: lines.`,
      );
    }
    try {
      vevent.addProperty(ICAL.Property.fromString(line.trim()));
    } catch (error) {
      throw new DomainError(
        'INVALID_RRULE',
        `Cannot read the recurrence line "${line}".`,
        {},
        { cause: error },
      );
    }
  }
}

/**
 * The key RECURRENCE-IDs are matched by: the original start, as series.ts keys it.
 *
 * @example
 * recurrenceKey(override); // '20260316T130000Z' for RECURRENCE-ID;TZID=America/New_York:20260316T090000
 */
export function recurrenceKey(vevent: ICAL.Component, zone?: string): string | undefined {
  const property = vevent.getFirstProperty('recurrence-id');
  return property ? originalKey(readEventTime(property, zone)) : undefined;
}
