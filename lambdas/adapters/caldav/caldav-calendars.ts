import ICAL from 'ical.js';
import type { ProviderCalendar } from '../../core/calendar/event.js';
import { IANAZone } from '../../core/time/luxon.js';
import type { Collection } from './caldav-client.js';
import { buildVtimezone } from './vtimezone.js';

/**
 * CalDAV calendar collections ⇄ ProviderCalendar. A calendar's `native_id` is the collection's
 * name inside the account's calendar home (`work` for `/alice/work/`), so that the calendar id
 * Meridian builds from it reads `caldav/<connection>/work`; it survives a change of host, port or
 * home location. A collection outside the home (shared from another account) keeps its absolute
 * path (`/bob/team/`): a leading `/` tells the two apart.
 */

/** What a calendar listing asks for: names, zone, components and privileges (for `access_role`). */
export const CALENDAR_PROPS = {
  'd:displayname': {},
  'd:resourcetype': {},
  'd:current-user-privilege-set': {},
  'c:calendar-description': {},
  'c:calendar-timezone': {},
  'c:supported-calendar-component-set': {},
};

type AccessRole = ProviderCalendar['access_role'];

/**
 * MKCALENDAR properties (RFC 4791 §5.3.1), `d:`/`c:`-prefixed as tsdav needs them: a VEVENT-only
 * collection, its name and description, and its zone as a VCALENDAR holding one VTIMEZONE.
 *
 * @example
 * mkcalendarProps({ name: 'Work', time_zone: 'Europe/Paris' }, 2026)['c:calendar-timezone'];
 * // { _cdata: 'BEGIN:VCALENDAR\r\n…TZID:Europe/Paris…END:VCALENDAR\r\n' }
 */
export function mkcalendarProps(
  input: { name: string; description?: string; time_zone?: string },
  year: number,
): Record<string, unknown> {
  const props: Record<string, unknown> = {
    'd:displayname': input.name,
    'c:supported-calendar-component-set': { 'c:comp': { _attributes: { name: 'VEVENT' } } },
  };
  if (input.description) props['c:calendar-description'] = input.description;
  if (input.time_zone) {
    const vtimezone = buildVtimezone(input.time_zone, year).toString();
    props['c:calendar-timezone'] = {
      _cdata: `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Meridian//CalDAV adapter//EN\r\n${vtimezone}\r\nEND:VCALENDAR\r\n`,
    };
  }
  return props;
}

/**
 * Calendar collections that can hold events (a VTODO-only task list is not a calendar here).
 *
 * @example
 * isEventCalendar({ url, props: { resourcetype: { calendar: {}, collection: {} } } }); // true
 */
export function isEventCalendar(collection: Collection): boolean {
  const types = Object.keys((collection.props.resourcetype as object | undefined) ?? {});
  const components = componentNames(collection.props.supportedCalendarComponentSet);
  return types.includes('calendar') && (components.length === 0 || components.includes('VEVENT'));
}

/**
 * Maps a calendar collection as a PROPFIND reports it.
 *
 * @example
 * toProviderCalendar({ url: 'http://dav/alice/work/', props: { displayname: 'Work', … } }, 'http://dav/alice/');
 * // { native_id: 'work', name: 'Work', primary: false, access_role: 'owner' }
 */
export function toProviderCalendar(collection: Collection, homeUrl: string): ProviderCalendar {
  const { props } = collection;
  const path = new URL(collection.url).pathname;
  const home = new URL(homeUrl).pathname;
  const relative = path.startsWith(home) ? path.slice(home.length).replace(/\/$/, '') : '';
  const description = textOf(props.calendarDescription);
  const zone = zoneOf(textOf(props.calendarTimezone));
  return {
    native_id: relative && !relative.includes('/') ? decodeURIComponent(relative) : path,
    name: textOf(props.displayname) || decodeURIComponent(path.replace(/\/+$/, '').split('/').pop() ?? ''),
    ...(description ? { description } : {}),
    ...(zone ? { time_zone: zone } : {}),
    // CalDAV has no "primary" calendar (RFC 6638's default calendar is about scheduling inbox
    // delivery, which Radicale does not implement): Meridian marks none.
    primary: false,
    access_role: accessRole(props.currentUserPrivilegeSet),
  };
}

/** tsdav's XML parsing gives text as a string, a number (nativeType) or `{ _cdata }`. */
function textOf(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  const cdata = (value as { _cdata?: unknown } | undefined)?._cdata;
  return typeof cdata === 'string' ? cdata : '';
}

function componentNames(set: unknown): string[] {
  const comp = (set as { comp?: unknown } | undefined)?.comp;
  const list = Array.isArray(comp) ? comp : comp ? [comp] : [];
  return list.map((c) =>
    String((c as { _attributes?: { name?: string } })._attributes?.name ?? '').toUpperCase(),
  );
}

/**
 * The collection URL a native_id names.
 *
 * @example
 * collectionUrl('work', 'http://dav/', 'http://dav/alice/'); // 'http://dav/alice/work/'
 * collectionUrl('/bob/team', 'http://dav/', 'http://dav/alice/'); // 'http://dav/bob/team/'
 */
export function collectionUrl(nativeId: string, serverUrl: string, homeUrl: string): string {
  if (nativeId.startsWith('/'))
    return new URL(nativeId.endsWith('/') ? nativeId : `${nativeId}/`, serverUrl).href;
  return new URL(`${encodeURIComponent(nativeId)}/`, homeUrl).href;
}

/** The TZID of a calendar-timezone property (a VCALENDAR with one VTIMEZONE), when it is IANA. */
function zoneOf(timezone: string): string | undefined {
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
