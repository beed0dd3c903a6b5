import { randomBytes } from 'node:crypto';
import type { calendar_v3 } from '@googleapis/calendar';
import { DateTime } from 'luxon';
import { badRequest, FakeGoogleHttpError, notFound } from './fake-google-errors.js';
import { instanceSuffix, isSeriesOccurrence, seriesStarts, timeMs } from './fake-google-recurrence.js';

/**
 * In-memory calendars and events of the fake Google Calendar, with Google's write semantics:
 * etags that change on every write, If-Match preconditions, instances of a series addressed as
 * `<series id>_<suffix>` (virtual until edited, then stored as an exception), deletions kept as
 * cancelled tombstones so incremental sync can report them.
 */

type GoogleEvent = calendar_v3.Schema$Event;

export interface StoredEvent {
  event: GoogleEvent;
  /** Change sequence of the last write, for sync tokens. */
  seq: number;
  /** The whole event was deleted (a tombstone); a cancelled instance is not `deleted`. */
  deleted: boolean;
}

export interface FakeCalendar {
  id: string;
  summary: string;
  description?: string;
  timeZone: string;
  accessRole: 'owner' | 'writer' | 'reader' | 'freeBusyReader';
  primary: boolean;
  events: Map<string, StoredEvent>;
}

// Google event ids: base32hex characters (a-v, 0-9), 5 to 1024 of them.
const EVENT_ID = /^[a-v0-9]{5,1024}$/;
// Fields a patch may not change: identity and series bookkeeping.
const PROTECTED = new Set(['id', 'recurringEventId', 'originalStartTime', 'iCalUID', 'etag', 'kind']);

export class FakeGoogleStore {
  readonly calendars = new Map<string, FakeCalendar>();
  /** Global change counter: sync tokens remember the value they were issued at. */
  seq = 0;
  private etagCounter = 3_181_161_784_712_000;

  constructor(readonly ownerEmail: string) {}

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  addCalendar(input: Omit<FakeCalendar, 'events' | 'id'> & { id?: string }): FakeCalendar {
    const id = input.id ?? `${randomBytes(12).toString('hex')}@group.calendar.google.com`;
    const calendar: FakeCalendar = { ...input, id, events: new Map() };
    this.calendars.set(id, calendar);
    return calendar;
  }

  calendar(id: string): FakeCalendar {
    const resolved = id === 'primary' ? this.ownerEmail : id;
    const calendar = this.calendars.get(resolved);
    if (!calendar) throw notFound();
    return calendar;
  }

  /** The current event or instance (virtual or stored), tombstones included. */
  find(calendar: FakeCalendar, id: string): StoredEvent | undefined {
    const stored = calendar.events.get(id);
    if (stored) return stored;
    const separator = id.lastIndexOf('_');
    if (separator < 0) return undefined;
    const master = calendar.events.get(id.slice(0, separator));
    if (!master || master.deleted || !master.event.recurrence) return undefined;
    const suffix = id.slice(separator + 1);
    const start = seriesStarts(master.event, calendar.timeZone).find(
      (time) => instanceSuffix(time) === suffix,
    );
    return (
      start && {
        event: virtualInstance(master.event, start, calendar.timeZone),
        seq: master.seq,
        deleted: false,
      }
    );
  }

  insert(calendar: FakeCalendar, body: GoogleEvent): GoogleEvent {
    // Hex digits are a subset of base32hex, so a hex id is a valid Google id.
    const id = body.id ?? randomBytes(13).toString('hex');
    if (!EVENT_ID.test(id)) throw badRequest('Invalid resource id value.');
    if (calendar.events.has(id)) {
      throw new FakeGoogleHttpError(409, 'duplicate', 'The requested identifier already exists.');
    }
    const event: GoogleEvent = {
      status: 'confirmed',
      reminders: { useDefault: true },
      ...(stripNulls(body) as GoogleEvent),
      kind: 'calendar#event',
      id,
      iCalUID: `${id}@google.com`,
      htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${id} ${calendar.id}`).toString('base64url')}`,
      organizer: { email: calendar.id, self: true },
      creator: { email: this.ownerEmail, self: true },
      created: new Date().toISOString(),
      sequence: 0,
    };
    validateTimes(event);
    return this.write(calendar, id, event);
  }

  patch(calendar: FakeCalendar, id: string, body: GoogleEvent, ifMatch: string | undefined): GoogleEvent {
    const current = this.find(calendar, id);
    if (!current || current.deleted || current.event.status === 'cancelled') throw notFound();
    checkPrecondition(current.event, ifMatch);
    const merged = mergePatch(current.event, body) as GoogleEvent;
    merged.sequence = (current.event.sequence ?? 0) + 1;
    validateTimes(merged);
    return this.write(calendar, id, merged);
  }

  delete(calendar: FakeCalendar, id: string, ifMatch: string | undefined): void {
    const current = this.find(calendar, id);
    if (!current) throw notFound();
    if (current.deleted || current.event.status === 'cancelled') {
      throw new FakeGoogleHttpError(410, 'deleted', 'Resource has been deleted');
    }
    checkPrecondition(current.event, ifMatch);
    if (current.event.recurringEventId) {
      // Deleting one instance leaves a cancelled exception, which hides that occurrence.
      this.write(calendar, id, { ...current.event, status: 'cancelled' });
      return;
    }
    this.tombstone(calendar, id);
    if (current.event.recurrence) {
      for (const [otherId, stored] of calendar.events) {
        if (stored.event.recurringEventId === id) this.tombstone(calendar, otherId);
      }
    }
  }

  /** The event as a list would show it, or undefined when an exception lost its place in the series. */
  visible(calendar: FakeCalendar, stored: StoredEvent): boolean {
    const masterId = stored.event.recurringEventId;
    if (!masterId) return true;
    const master = calendar.events.get(masterId);
    const original = stored.event.originalStartTime;
    return Boolean(
      master &&
        !master.deleted &&
        original &&
        isSeriesOccurrence(master.event, calendar.timeZone, instanceSuffix(original)),
    );
  }

  /** Every instance of a series master: virtual ones and stored exceptions (cancelled ones included). */
  instances(calendar: FakeCalendar, master: GoogleEvent, beforeMs?: number): GoogleEvent[] {
    return seriesStarts(master, calendar.timeZone, beforeMs).map((start) => {
      const exception = calendar.events.get(`${master.id}_${instanceSuffix(start)}`);
      return exception ? exception.event : virtualInstance(master, start, calendar.timeZone);
    });
  }

  private tombstone(calendar: FakeCalendar, id: string): void {
    const stored = calendar.events.get(id);
    if (!stored || stored.deleted) return;
    const event = { ...stored.event, status: 'cancelled', etag: this.nextEtag() };
    calendar.events.set(id, { event, seq: this.nextSeq(), deleted: true });
  }

  private write(calendar: FakeCalendar, id: string, event: GoogleEvent): GoogleEvent {
    const written = {
      ...event,
      ...(event.attendees ? { attendees: markSelf(event.attendees, calendar.id) } : {}),
      etag: this.nextEtag(),
      updated: new Date().toISOString(),
    };
    calendar.events.set(id, { event: written, seq: this.nextSeq(), deleted: false });
    return written;
  }

  private nextEtag(): string {
    this.etagCounter += 1000;
    return `"${this.etagCounter}"`;
  }
}

/**
 * Google's read-only `self`: true on the attendee that is the calendar this copy of the event is
 * on (its id is the owner's address), absent on the others, whatever the client sent.
 */
function markSelf(
  attendees: calendar_v3.Schema$EventAttendee[],
  calendarId: string,
): calendar_v3.Schema$EventAttendee[] {
  return attendees.map(({ self: _sent, ...attendee }) =>
    attendee.email?.toLowerCase() === calendarId.toLowerCase() ? { ...attendee, self: true } : attendee,
  );
}

function virtualInstance(
  master: GoogleEvent,
  start: calendar_v3.Schema$EventDateTime,
  zone: string,
): GoogleEvent {
  const { recurrence: _recurrence, ...fields } = master;
  const duration = timeMs(master.end ?? {}, zone) - timeMs(master.start ?? {}, zone);
  const end = start.date
    ? { date: new Date(timeMs(start, 'UTC') + duration).toISOString().slice(0, 10) }
    : {
        dateTime: DateTime.fromMillis(timeMs(start, zone) + duration, {
          zone: master.end?.timeZone ?? zone,
        }).toISO({
          suppressMilliseconds: true,
        }),
        timeZone: master.end?.timeZone,
      };
  return {
    ...fields,
    id: `${master.id}_${instanceSuffix(start)}`,
    recurringEventId: master.id,
    originalStartTime: start,
    start,
    end,
  };
}

function checkPrecondition(event: GoogleEvent, ifMatch: string | undefined): void {
  if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== event.etag) {
    throw new FakeGoogleHttpError(412, 'conditionNotMet', 'Precondition Failed');
  }
}

/** Google's patch semantics: objects merge field by field, `null` clears a field, arrays replace. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch) || !isObject(target)) return patch;
  const merged: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (PROTECTED.has(key)) continue;
    if (value === null) delete merged[key];
    else merged[key] = isObject(value) ? mergePatch(merged[key] ?? {}, value) : value;
  }
  return merged;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validateTimes(event: GoogleEvent): void {
  const { start, end } = event;
  if (!start || !(start.date || start.dateTime)) throw badRequest('Missing start time.', 'required');
  if (!end || !(end.date || end.dateTime)) throw badRequest('Missing end time.', 'required');
  if (Boolean(start.date) !== Boolean(end.date) || (start.date && start.dateTime)) {
    throw badRequest('Start and end times must either both be date or both be dateTime.');
  }
  if (timeMs(end, 'UTC') < timeMs(start, 'UTC'))
    throw badRequest('The specified time range is empty.', 'timeRangeEmpty');
  if (event.recurrence?.length && start.dateTime && !start.timeZone) {
    throw badRequest('Missing time zone definition for start time.');
  }
}

/** Google treats `null` in an insert as absent and never answers with nulls. */
function stripNulls(value: unknown): unknown {
  if (!isObject(value)) return value;
  const entries = Object.entries(value).filter(([, v]) => v !== null);
  return Object.fromEntries(entries.map(([k, v]) => [k, stripNulls(v)]));
}
