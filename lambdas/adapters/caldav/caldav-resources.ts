import { parseInstanceId } from '../../core/calendar/event-times.js';
import { DomainError, isDomainError } from '../../core/errors.js';
import type { CalendarRef } from '../../core/ports/index.js';
import { collectionUrl } from './caldav-calendars.js';
import type { CalDavClient, StoredObject } from './caldav-client.js';
import { type ParsedResource, parseResource, type ReadContext } from './ical-mapping.js';

/** A resource as read, with the ETag every write to it is conditioned on. */
export interface Loaded {
  object: StoredObject;
  parsed: ParsedResource;
}

/** Widening of the server-side time-range: all-day and floating events are placed in UTC there. */
const SLACK_MS = 86_400_000;

/**
 * Where a calendar's events live on the server and how they are read: collection and object URLs,
 * the resource holding an event id, and the resources of a time window.
 *
 * @example
 * const resources = new CalDavResources(client, { serverUrl });
 * const { object, parsed } = await resources.load(calendar, 'standup_20260323T130000Z');
 */
export class CalDavResources {
  constructor(
    private readonly client: CalDavClient,
    private readonly options: { serverUrl: string; defaultTimezone?: string },
  ) {}

  /** Zone for series and floating times: the calendar's, else the deployment default. */
  zoneOf(calendar: CalendarRef): string | undefined {
    return calendar.time_zone ?? this.options.defaultTimezone;
  }

  async calendarUrl(calendar: CalendarRef): Promise<string> {
    // An absolute path needs no discovery; a name inside the home does (once per client).
    const home = calendar.native_id.startsWith('/') ? '' : await this.client.homeUrl();
    return collectionUrl(calendar.native_id, this.options.serverUrl, home);
  }

  /** `<uid>.ics` in the calendar: the name Meridian gives the resources it creates. */
  async objectUrl(calendar: CalendarRef, uid: string): Promise<string> {
    return new URL(`${encodeURIComponent(uid)}.ics`, await this.calendarUrl(calendar)).href;
  }

  /**
   * The resources with an event in [fromMs, toMs). The server filters (Radicale applies the
   * time-range to recurrence rules too) on a window widened by a day; callers check overlap
   * exactly. A resource another client wrote that cannot be read is left out, not fatal.
   */
  async inWindow(calendar: CalendarRef, fromMs: number, toMs: number): Promise<ParsedResource[]> {
    const objects = await this.client.queryObjects(await this.calendarUrl(calendar), {
      start: icalUtc(fromMs - SLACK_MS),
      end: icalUtc(toMs + SLACK_MS),
    });
    const base = await this.readContext(calendar, '');
    const context = (etag: string): ReadContext => ({ ...base, etag });
    return objects.flatMap((object) => {
      try {
        return [parseResource(object.data, context(object.etag))];
      } catch {
        return [];
      }
    });
  }

  /**
   * The resource holding `eventId` (a UID, or an instance id `<uid>_<start>`): `<uid>.ics` first,
   * then a search by UID, since other clients name their files as they like.
   */
  async load(calendar: CalendarRef, eventId: string): Promise<Loaded> {
    const instance = parseInstanceId(eventId);
    // An instance id names its master's resource; a UID may itself look like one, so try both.
    const uids = instance ? [instance.masterId, eventId] : [eventId];
    for (const uid of uids) {
      const object = await this.client
        .getObject(await this.objectUrl(calendar, uid))
        .catch((error: unknown) => {
          if (isDomainError(error, 'NOT_FOUND')) return undefined;
          throw error;
        });
      const candidates = object
        ? [object]
        : await this.client.findByUid(await this.calendarUrl(calendar), uid);
      for (const candidate of candidates) {
        const parsed = parseResource(candidate.data, await this.readContext(calendar, candidate.etag));
        if (parsed.uid === uid) return { object: candidate, parsed };
      }
    }
    throw new DomainError(
      'NOT_FOUND',
      `No event "${eventId}" in calendar "${calendar.calendar_id}": list_events shows the ids that exist.`,
      { event_id: eventId, calendar_id: calendar.calendar_id },
    );
  }

  /** Reads a resource again after a write: the server may normalise it, and it has a new ETag. */
  async readBack(calendar: CalendarRef, url: string): Promise<ParsedResource> {
    const object = await this.client.getObject(url);
    return parseResource(object.data, await this.readContext(calendar, object.etag));
  }

  /** How the calendar's resources are read: its id, zone and owner (whose attendee entry is `self`). */
  async readContext(calendar: CalendarRef, etag: string): Promise<ReadContext> {
    const zone = this.zoneOf(calendar);
    const owner = await this.client.ownerAddresses();
    return { calendarId: calendar.calendar_id, etag, owner, ...(zone ? { zone } : {}) };
  }
}

/** `YYYYMMDDTHHMMSSZ`, the form CalDAV time-range filters take. */
function icalUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}
