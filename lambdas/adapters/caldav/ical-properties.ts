import ICAL from 'ical.js';
import type { Attendee, CalendarEvent, Reminders } from '../../core/calendar/event.js';

/**
 * The VEVENT properties that map one-to-one onto CalendarEvent fields: participation, alarms,
 * status/transparency/class and colour. Times live in ical-time.ts; the whole event in
 * ical-mapping.ts.
 */

type Status = CalendarEvent['status'];
type Visibility = CalendarEvent['visibility'];
type ResponseStatus = Attendee['response_status'];

const STATUS: Record<Status, string> = {
  confirmed: 'CONFIRMED',
  tentative: 'TENTATIVE',
  cancelled: 'CANCELLED',
};
const CLASS: Record<Exclude<Visibility, 'default'>, string> = {
  public: 'PUBLIC',
  private: 'PRIVATE',
  confidential: 'CONFIDENTIAL',
};
const PARTSTAT: Record<ResponseStatus, string> = {
  needsAction: 'NEEDS-ACTION',
  accepted: 'ACCEPTED',
  declined: 'DECLINED',
  tentative: 'TENTATIVE',
};

/**
 * Meridian's colour ids are Google's event palette (1–11). iCalendar's COLOR (RFC 7986) takes a
 * CSS colour name, so each id is written as the nearest CSS name for other clients, and as
 * `X-MERIDIAN-COLOR-ID` for an exact round trip. A COLOR set by another client is read back
 * through this table when it names one of these colours.
 */
const COLOR_NAMES: Record<string, string> = {
  '1': 'mediumpurple',
  '2': 'mediumseagreen',
  '3': 'darkorchid',
  '4': 'lightcoral',
  '5': 'gold',
  '6': 'orangered',
  '7': 'deepskyblue',
  '8': 'dimgray',
  '9': 'royalblue',
  '10': 'forestgreen',
  '11': 'red',
};
const COLOR_ID_PROPERTY = 'x-meridian-color-id';
const MAX_REMINDER_MINUTES = 40_320;
const MAX_REMINDERS = 5;

function text(component: ICAL.Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Sets a text property, or removes it when `value` is undefined.
 *
 * @example
 * setText(vevent, 'location', 'Room 4'); // LOCATION:Room 4
 */
export function setText(component: ICAL.Component, name: string, value: string | undefined): void {
  if (value === undefined) component.removeAllProperties(name);
  else component.updatePropertyWithValue(name, value);
}

/**
 * STATUS as Meridian's status; absent reads as `confirmed` (RFC 5545 gives no default, Google does).
 *
 * @example
 * readStatus(ICAL.Component.fromString('BEGIN:VEVENT\r\nSTATUS:TENTATIVE\r\nEND:VEVENT')); // 'tentative'
 */
export function readStatus(vevent: ICAL.Component): Status {
  const found = Object.entries(STATUS).find(([, ical]) => ical === text(vevent, 'status')?.toUpperCase());
  return (found?.[0] as Status | undefined) ?? 'confirmed';
}

/** @example writeStatus(vevent, 'cancelled'); // STATUS:CANCELLED */
export function writeStatus(vevent: ICAL.Component, status: Status): void {
  setText(vevent, 'status', STATUS[status]);
}

/** CLASS as visibility; absent reads as `default`. @example readVisibility(vevent); // 'private' for CLASS:PRIVATE */
export function readVisibility(vevent: ICAL.Component): Visibility {
  const found = Object.entries(CLASS).find(([, ical]) => ical === text(vevent, 'class')?.toUpperCase());
  return (found?.[0] as Visibility | undefined) ?? 'default';
}

/**
 * `default` leaves CLASS out: the calendar's (or client's) default applies, as in Google.
 *
 * @example
 * writeVisibility(vevent, 'confidential'); // CLASS:CONFIDENTIAL
 */
export function writeVisibility(vevent: ICAL.Component, visibility: Visibility): void {
  setText(vevent, 'class', visibility === 'default' ? undefined : CLASS[visibility]);
}

/** TRANSP as transparency; absent reads as `opaque` (RFC 5545's default). @example readTransparency(vevent); // 'transparent' */
export function readTransparency(vevent: ICAL.Component): CalendarEvent['transparency'] {
  return text(vevent, 'transp')?.toUpperCase() === 'TRANSPARENT' ? 'transparent' : 'opaque';
}

/** @example writeTransparency(vevent, 'transparent'); // TRANSP:TRANSPARENT */
export function writeTransparency(vevent: ICAL.Component, value: CalendarEvent['transparency']): void {
  setText(vevent, 'transp', value.toUpperCase());
}

/** `mailto:` address of a calendar user property; the EMAIL parameter (RFC 7986) wins when present. */
function emailOf(property: ICAL.Property): string | undefined {
  const param = property.getFirstParameter('email');
  const value = String(property.getFirstValue() ?? '');
  const email = param || (/^mailto:/i.test(value) ? value.slice(7) : '');
  return email.includes('@') ? email : undefined;
}

/**
 * ATTENDEEs with an email address (`mailto:` value or EMAIL parameter); others (a bare
 * `urn:uuid:`) cannot be addressed and are left out.
 *
 * @example
 * // ATTENDEE;CN=Bob;PARTSTAT=ACCEPTED;ROLE=OPT-PARTICIPANT:mailto:bob@example.com
 * readAttendees(vevent); // [{ email: 'bob@example.com', display_name: 'Bob', response_status: 'accepted', optional: true }]
 */
export function readAttendees(vevent: ICAL.Component): Attendee[] {
  return vevent.getAllProperties('attendee').flatMap((property) => {
    const email = emailOf(property);
    if (!email) return [];
    const cn = property.getFirstParameter('cn');
    const partstat = property.getFirstParameter('partstat')?.toUpperCase();
    const role = property.getFirstParameter('role')?.toUpperCase();
    const status = Object.entries(PARTSTAT).find(([, ical]) => ical === partstat)?.[0] as
      | ResponseStatus
      | undefined;
    return [
      {
        email,
        ...(cn ? { display_name: cn } : {}),
        response_status: status ?? 'needsAction',
        ...(role === 'OPT-PARTICIPANT'
          ? { optional: true }
          : role === 'REQ-PARTICIPANT'
            ? { optional: false }
            : {}),
      },
    ];
  });
}

/**
 * Replaces every ATTENDEE. ROLE is written only when `optional` is set, so it round-trips;
 * RSVP=TRUE asks clients to offer a reply while the answer is still open.
 *
 * @example
 * writeAttendees(vevent, [{ email: 'carol@example.com', response_status: 'needsAction' }]);
 * // ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:carol@example.com
 */
export function writeAttendees(vevent: ICAL.Component, attendees: readonly Attendee[]): void {
  vevent.removeAllProperties('attendee');
  for (const attendee of attendees) {
    const property = new ICAL.Property('attendee', vevent);
    property.setValue(`mailto:${attendee.email}`);
    if (attendee.display_name) property.setParameter('cn', attendee.display_name);
    property.setParameter('partstat', PARTSTAT[attendee.response_status ?? 'needsAction']);
    if (attendee.optional !== undefined)
      property.setParameter('role', attendee.optional ? 'OPT-PARTICIPANT' : 'REQ-PARTICIPANT');
    if ((attendee.response_status ?? 'needsAction') === 'needsAction') property.setParameter('rsvp', 'TRUE');
    vevent.addProperty(property);
  }
}

/** @example readOrganizer(vevent); // { email: 'alice@example.com', display_name: 'Alice' } */
export function readOrganizer(vevent: ICAL.Component): CalendarEvent['organizer'] {
  const property = vevent.getFirstProperty('organizer');
  const email = property ? emailOf(property) : undefined;
  if (!property || !email) return undefined;
  const cn = property.getFirstParameter('cn');
  return { email, ...(cn ? { display_name: cn } : {}) };
}

/** @example writeOrganizer(vevent, 'alice@example.com'); // ORGANIZER:mailto:alice@example.com */
export function writeOrganizer(vevent: ICAL.Component, email: string): void {
  vevent.updatePropertyWithValue('organizer', `mailto:${email}`);
}

/**
 * VALARMs that fire a whole number of minutes before the start. Alarms Meridian cannot express
 * (absolute or after-start triggers, more than 5) are left out of the model, not deleted.
 * No alarm at all reads as `undefined`: CalDAV has no "calendar default reminders".
 *
 * @example
 * // BEGIN:VALARM / ACTION:DISPLAY / TRIGGER:-PT10M / END:VALARM
 * readReminders(vevent); // { use_default: false, overrides: [{ method: 'popup', minutes: 10 }] }
 */
export function readReminders(vevent: ICAL.Component): Reminders | undefined {
  const overrides = vevent.getAllSubcomponents('valarm').flatMap((alarm) => {
    const trigger = alarm.getFirstProperty('trigger');
    const value = trigger?.getFirstValue();
    if (!(value instanceof ICAL.Duration) || trigger?.getFirstParameter('related')?.toUpperCase() === 'END')
      return [];
    const seconds = value.toSeconds();
    if (seconds > 0 || seconds % 60 !== 0 || -seconds / 60 > MAX_REMINDER_MINUTES) return [];
    const method = text(alarm, 'action')?.toUpperCase() === 'EMAIL' ? ('email' as const) : ('popup' as const);
    return [{ method, minutes: -seconds / 60 }];
  });
  return overrides.length > 0
    ? { use_default: false, overrides: overrides.slice(0, MAX_REMINDERS) }
    : undefined;
}

/**
 * Replaces the VALARMs. `use_default: true` writes none: each client then applies its own default
 * alarms, the closest thing CalDAV has to Google's default reminders.
 *
 * @example
 * writeReminders(vevent, { use_default: false, overrides: [{ method: 'email', minutes: 60 }] }, 'Review', 'a@example.com');
 * // BEGIN:VALARM / ACTION:EMAIL / TRIGGER:-PT1H / DESCRIPTION:Review / SUMMARY:Review / ATTENDEE:mailto:a@example.com
 */
export function writeReminders(
  vevent: ICAL.Component,
  reminders: Reminders,
  summary: string,
  recipient?: string,
): void {
  vevent.removeAllSubcomponents('valarm');
  if (reminders.use_default) return;
  for (const { method, minutes } of reminders.overrides ?? []) {
    const alarm = new ICAL.Component('valarm');
    alarm.addPropertyWithValue('action', method === 'email' ? 'EMAIL' : 'DISPLAY');
    alarm.addPropertyWithValue('trigger', ICAL.Duration.fromSeconds(-minutes * 60));
    alarm.addPropertyWithValue('description', summary);
    // RFC 5545 §3.6.6: an EMAIL alarm needs SUMMARY and at least one ATTENDEE (the recipient).
    if (method === 'email') {
      alarm.addPropertyWithValue('summary', summary);
      if (recipient) alarm.addPropertyWithValue('attendee', `mailto:${recipient}`);
    }
    vevent.addSubcomponent(alarm);
  }
}

/** @example readColorId(vevent); // '5' for X-MERIDIAN-COLOR-ID:5, or for COLOR:gold alone */
export function readColorId(vevent: ICAL.Component): string | undefined {
  const exact = text(vevent, COLOR_ID_PROPERTY);
  if (exact && COLOR_NAMES[exact]) return exact;
  const css = text(vevent, 'color')?.toLowerCase();
  return Object.entries(COLOR_NAMES).find(([, name]) => name === css)?.[0];
}

/** @example writeColorId(vevent, '5'); // COLOR:gold and X-MERIDIAN-COLOR-ID:5 */
export function writeColorId(vevent: ICAL.Component, colorId: string): void {
  setText(vevent, 'color', COLOR_NAMES[colorId]);
  setText(vevent, COLOR_ID_PROPERTY, colorId);
}
