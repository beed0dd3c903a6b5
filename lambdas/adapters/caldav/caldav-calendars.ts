import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import type { DAVCalendar } from 'tsdav';
import type { ProviderCalendar } from '../../core/calendar/event.js';

/**
 * CalDAV calendar collections ⇄ ProviderCalendar. A calendar's `native_id` is its collection path
 * on the server (`/alice/work/`): stable when the server's host or port changes, and resolved
 * against the connection's server URL for every request.
 */

/** What fetchCalendars asks for: tsdav's defaults plus the privileges, to derive `access_role`. */
export const CALENDAR_PROPS = {
  'd:displayname': {},
  'd:resourcetype': {},
  'd:current-user-privilege-set': {},
  'c:calendar-description': {},
  'c:calendar-timezone': {},
  'c:supported-calendar-component-set': {},
};

type AccessRole = ProviderCalendar['access_role'];

/** Only collections that can hold events (a VTODO-only task list is not a calendar here). */
export function holdsEvents(calendar: DAVCalendar): boolean {
  return !calendar.components || calendar.components.length === 0 || calendar.components.includes('VEVENT');
}

/**
 * Maps a collection as tsdav reports it.
 *
 * @example
 * toProviderCalendar({ url: 'http://dav/alice/work/', displayName: 'Work', … });
 * // { native_id: '/alice/work/', name: 'Work', primary: false, access_role: 'owner' }
 */
export function toProviderCalendar(calendar: DAVCalendar): ProviderCalendar {
  const path = new URL(calendar.url).pathname;
  const name =
    typeof calendar.displayName === 'string' && calendar.displayName
      ? calendar.displayName
      : lastSegment(path);
  const zone = zoneOf(calendar.timezone);
  return {
    native_id: path,
    name,
    ...(calendar.description ? { description: calendar.description } : {}),
    ...(zone ? { time_zone: zone } : {}),
    // CalDAV has no "primary" calendar (RFC 6638's default calendar is about scheduling inbox
    // delivery, which Radicale does not implement): Meridian marks none.
    primary: false,
    access_role: accessRole(calendar.projectedProps?.currentUserPrivilegeSet),
  };
}

/** The last path segment, e.g. `work` for `/alice/work/`: the `<name>` in `caldav/<connection>/<name>`. */
export function lastSegment(path: string): string {
  return decodeURIComponent(path.replace(/\/+$/, '').split('/').pop() ?? '');
}

/** The TZID of a calendar-timezone property (a VCALENDAR with one VTIMEZONE), when it is IANA. */
function zoneOf(timezone: string | undefined): string | undefined {
  if (!timezone) return undefined;
  try {
    const root = new ICAL.Component(ICAL.parse(timezone));
    const tzid = root.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid');
    return typeof tzid === 'string' && IANAZone.isValidZone(tzid) ? tzid : undefined;
  } catch {
    return undefined;
  }
}

function accessRole(privilegeSet: unknown): AccessRole {
  const raw = (privilegeSet as { privilege?: unknown } | undefined)?.privilege;
  if (raw === undefined) return 'owner';
  const privileges = new Set((Array.isArray(raw) ? raw : [raw]).flatMap((p) => Object.keys(p ?? {})));
  if (privileges.has('all')) return 'owner';
  if (privileges.has('write') || privileges.has('writeContent')) return 'writer';
  if (privileges.has('read')) return 'reader';
  return 'freeBusyReader';
}
