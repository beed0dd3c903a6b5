import ICAL from 'ical.js';
import type { CalendarEvent } from '../../core/calendar/event.js';
import { originalKey } from '../../core/calendar/event-times.js';
import { IANAZone } from '../../core/time/luxon.js';
import { parseCalendar, recurrenceKey, type WriteContext, writeVevent } from './ical-mapping.js';
import { buildVtimezone } from './vtimezone.js';

const PRODID = '-//Meridian//CalDAV adapter//EN';
const TIME_PROPERTIES = ['dtstart', 'dtend', 'recurrence-id', 'exdate', 'rdate'];

/**
 * The events one resource holds: a single event, or a series master with its overrides, or
 * (written by scheduling servers for an invitation to single occurrences) overrides only.
 */
export interface ResourceContent {
  master?: CalendarEvent;
  overrides: readonly CalendarEvent[];
}

/**
 * Serializes a resource. With `base` (the stored text), its components are patched in place so
 * that what Meridian does not model survives; overrides no longer in `content` are dropped.
 * VTIMEZONEs are regenerated for the IANA zones referenced; others (a client's own) are kept.
 *
 * @example
 * const ics = buildResource({ master: event, overrides: [] }, undefined, { now: new Date() });
 * // BEGIN:VCALENDAR / PRODID:-//Meridian//CalDAV adapter//EN / … / BEGIN:VEVENT / UID:… / END:VCALENDAR
 */
export function buildResource(
  content: ResourceContent,
  base: string | undefined,
  context: WriteContext,
): string {
  const root = base ? parseCalendar(base) : newCalendar();
  const existing = root.getAllSubcomponents('vevent');
  const kept = new Map(
    existing.filter((v) => v.hasProperty('recurrence-id')).map((v) => [recurrenceKey(v), v]),
  );
  const vevents: ICAL.Component[] = [];
  if (content.master) {
    const masterComponent =
      existing.find((v) => !v.hasProperty('recurrence-id')) ?? new ICAL.Component('vevent');
    writeVevent(masterComponent, content.master, context);
    vevents.push(masterComponent);
  }
  for (const override of content.overrides) {
    const component =
      kept.get(originalKey(override.original_start ?? override.start)) ?? new ICAL.Component('vevent');
    const uid = content.master?.id ?? override.recurring_event_id;
    writeVevent(component, { ...override, ...(uid ? { recurring_event_id: uid } : {}) }, context);
    vevents.push(component);
  }
  const foreignZones = root
    .getAllSubcomponents('vtimezone')
    .filter((tz) => !IANAZone.isValidZone(tzidOf(tz)));
  root.removeAllSubcomponents('vevent');
  root.removeAllSubcomponents('vtimezone');
  for (const zone of referencedZones(vevents)) {
    const foreign = foreignZones.find((tz) => tzidOf(tz) === zone.tzid);
    if (foreign) root.addSubcomponent(foreign);
    else if (IANAZone.isValidZone(zone.tzid)) root.addSubcomponent(buildVtimezone(zone.tzid, zone.fromYear));
  }
  for (const vevent of vevents) root.addSubcomponent(vevent);
  return root.toString();
}

function newCalendar(): ICAL.Component {
  const root = new ICAL.Component('vcalendar');
  root.addPropertyWithValue('prodid', PRODID);
  root.addPropertyWithValue('version', '2.0');
  root.addPropertyWithValue('calscale', 'GREGORIAN');
  return root;
}

function tzidOf(vtimezone: ICAL.Component): string {
  return String(vtimezone.getFirstPropertyValue('tzid') ?? '');
}

/** Every TZID the events use, with the earliest year it is used in (the VTIMEZONE starts there). */
function referencedZones(vevents: readonly ICAL.Component[]): { tzid: string; fromYear: number }[] {
  const years = new Map<string, number>();
  for (const vevent of vevents) {
    for (const name of TIME_PROPERTIES) {
      for (const property of vevent.getAllProperties(name)) {
        const tzid = property.getFirstParameter('tzid');
        if (!tzid) continue;
        const values = property.getValues().filter((v): v is ICAL.Time => v instanceof ICAL.Time);
        if (values.length === 0) continue;
        const year = Math.min(...values.map((v) => v.year));
        years.set(tzid, Math.min(years.get(tzid) ?? year, year));
      }
    }
  }
  return [...years].map(([tzid, fromYear]) => ({ tzid, fromYear }));
}
