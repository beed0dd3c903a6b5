import { randomBytes } from 'node:crypto';
import { type GraphRecurrence, occurrenceStarts } from './fake-graph-recurrence.js';
import {
  dateIn,
  type GraphTime,
  graphTimeMs,
  ianaZone,
  offsetString,
  renderTime,
} from './fake-graph-time.js';

/**
 * The mailbox behind the fake Graph: calendars, single events and series (master, generated
 * occurrences, exceptions, deleted occurrences), rendered in Graph's event shape. Times are kept
 * as written and rendered in the zone a request prefers (`Prefer: outlook.timezone`, else UTC).
 */

export type Json = Record<string, unknown>;

export class FakeGraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** Graph's error body. */
  body(): unknown {
    return { error: { code: this.code, message: this.message, innerError: { 'request-id': 'fake' } } };
  }
}

export const itemNotFound = () =>
  new FakeGraphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
export const invalidRequest = (message: string) => new FakeGraphError(400, 'ErrorInvalidRequest', message);

export interface FakeGraphCalendar {
  id: string;
  name: string;
  isDefaultCalendar: boolean;
  canEdit: boolean;
  owner: { name: string; address: string };
  events: Map<string, StoredEvent>;
}

interface Exception {
  fields: Json;
  version: number;
  modified: number;
}

export interface StoredEvent {
  id: string;
  calendarId: string;
  fields: Json;
  version: number;
  created: number;
  modified: number;
  exceptions: Map<number, Exception>;
  deletedOccurrences: Set<number>;
  transactionId?: string;
}

/** One item of a calendar view: a single event, an occurrence or an exception of a series. */
export interface ViewItem {
  stored: StoredEvent;
  originalStartMs?: number;
  exception?: Exception;
  startMs: number;
  endMs: number;
}

const WRITABLE = [
  'subject',
  'body',
  'start',
  'end',
  'isAllDay',
  'location',
  'showAs',
  'sensitivity',
  'attendees',
  'recurrence',
  'isReminderOn',
  'reminderMinutesBeforeStart',
  'categories',
  'importance',
  'responseRequested',
];

const newId = () => `AAMkAD${randomBytes(12).toString('hex')}`;
const occurrenceId = (masterId: string, originalMs: number) =>
  `AAMkOC${Buffer.from(`${masterId}|${originalMs}`).toString('hex')}`;

/** The series and original start an occurrence id names. */
function parseOccurrenceId(id: string): { masterId: string; originalMs: number } | undefined {
  if (!id.startsWith('AAMkOC')) return undefined;
  const [masterId, ms] = Buffer.from(id.slice(6), 'hex').toString().split('|');
  return masterId && ms ? { masterId, originalMs: Number(ms) } : undefined;
}

export class FakeGraphStore {
  readonly calendars = new Map<string, FakeGraphCalendar>();
  private clock = Date.parse('2026-01-15T12:00:00Z');

  constructor(readonly owner: { name: string; address: string }) {}

  /** A strictly increasing "now" for created/modified stamps. */
  private tick(): number {
    this.clock += 1000;
    return this.clock;
  }

  addCalendar(name: string, isDefaultCalendar = false, id = newId()): FakeGraphCalendar {
    const calendar = { id, name, isDefaultCalendar, canEdit: true, owner: this.owner, events: new Map() };
    this.calendars.set(id, calendar);
    return calendar;
  }

  calendar(id: string): FakeGraphCalendar {
    const calendar = this.calendars.get(id);
    if (!calendar) throw itemNotFound();
    return calendar;
  }

  /** Every event of every calendar by id, for routes that address `/me/events/{id}`. */
  private findStored(id: string): StoredEvent | undefined {
    for (const calendar of this.calendars.values()) {
      const found = calendar.events.get(id);
      if (found) return found;
    }
    return undefined;
  }

  create(calendarId: string, input: Json): StoredEvent {
    const calendar = this.calendar(calendarId);
    // transactionId: a client's retry of the same POST gets the event the first one created.
    const twin = [...calendar.events.values()].find(
      (e) => input.transactionId && e.transactionId === input.transactionId,
    );
    if (twin) return twin;
    const fields = this.ownAnswerDropped(pick(input));
    validateTimes(fields);
    const now = this.tick();
    const stored: StoredEvent = {
      id: newId(),
      calendarId,
      fields,
      version: 1,
      created: now,
      modified: now,
      exceptions: new Map(),
      deletedOccurrences: new Set(),
      ...(typeof input.transactionId === 'string' ? { transactionId: input.transactionId } : {}),
    };
    if (fields.recurrence) this.occurrencesOf(stored); // refuses a pattern Graph would refuse
    calendar.events.set(stored.id, stored);
    return stored;
  }

  /** The event or occurrence an id names, as a view item. */
  resolve(id: string): ViewItem {
    const occurrence = parseOccurrenceId(id);
    if (!occurrence) {
      const stored = this.findStored(id);
      if (!stored) throw itemNotFound();
      const startMs = graphTimeMs(stored.fields.start as GraphTime);
      return { stored, startMs, endMs: graphTimeMs(stored.fields.end as GraphTime) };
    }
    const master = this.findStored(occurrence.masterId);
    const item =
      master && this.occurrencesOf(master).find((i) => i.originalStartMs === occurrence.originalMs);
    if (!item) throw itemNotFound();
    return item;
  }

  update(id: string, input: Json): ViewItem {
    return this.write(id, this.ownAnswerDropped(pick(input)));
  }

  /**
   * A status written on the owner's own attendee entry is not their answer: that is the item's
   * `responseStatus`, set only by the answer actions (see respond). Dropped, so a client that
   * writes it instead of answering reads back no answer.
   */
  private ownAnswerDropped(fields: Json): Json {
    if (!Array.isArray(fields.attendees)) return fields;
    const owner = this.owner.address.toLowerCase();
    const own = (a: Json) =>
      String((a.emailAddress as Json | undefined)?.address ?? '').toLowerCase() === owner;
    const attendees = (fields.attendees as Json[]).map((a) => {
      if (!own(a)) return a;
      const { status: _dropped, ...rest } = a;
      return rest;
    });
    return { ...fields, attendees };
  }

  /**
   * The mailbox owner's answer (accept, decline, tentativelyAccept): the item's `responseStatus`,
   * which PATCH cannot set (the reference lists it among no updatable properties). Answering one
   * occurrence makes it an exception, as any edit of one occurrence does.
   */
  respond(id: string, response: 'accepted' | 'declined' | 'tentativelyAccepted'): ViewItem {
    return this.write(id, { responseStatus: { response, time: offsetString(this.clock + 1000) } });
  }

  private write(id: string, patch: Json): ViewItem {
    const item = this.resolve(id);
    if (item.originalStartMs === undefined) {
      const fields = { ...item.stored.fields, ...patch };
      validateTimes(fields);
      if (patch.start || patch.recurrence) item.stored.exceptions.clear();
      item.stored.fields = fields;
      item.stored.version += 1;
      item.stored.modified = this.tick();
      if (fields.recurrence) this.occurrencesOf(item.stored);
      return this.resolve(id);
    }
    if (patch.recurrence) throw invalidRequest('An occurrence cannot have its own recurrence.');
    const previous = item.exception?.fields ?? {};
    const merged = { ...previous, ...patch };
    validateTimes({ ...item.stored.fields, ...renderedTimes(item), ...merged });
    item.stored.exceptions.set(item.originalStartMs, {
      fields: merged,
      version: (item.exception?.version ?? 1) + 1,
      modified: this.tick(),
    });
    return this.resolve(id);
  }

  delete(id: string): void {
    const item = this.resolve(id);
    if (item.originalStartMs === undefined) {
      this.calendar(item.stored.calendarId).events.delete(item.stored.id);
      return;
    }
    item.stored.exceptions.delete(item.originalStartMs);
    item.stored.deletedOccurrences.add(item.originalStartMs);
    item.stored.modified = this.tick();
  }

  /** Occurrences and exceptions of a series, deleted ones left out, in original-start order. */
  occurrencesOf(master: StoredEvent): ViewItem[] {
    const start = master.fields.start as GraphTime;
    const duration = graphTimeMs(master.fields.end as GraphTime) - graphTimeMs(start);
    let starts: number[];
    try {
      starts = occurrenceStarts(
        start,
        master.fields.isAllDay === true,
        master.fields.recurrence as GraphRecurrence,
      );
    } catch (error) {
      throw invalidRequest(`Invalid recurrence: ${(error as Error).message}`);
    }
    return starts
      .filter((ms) => !master.deletedOccurrences.has(ms))
      .map((originalStartMs) => {
        const exception = master.exceptions.get(originalStartMs);
        const startMs = exception?.fields.start
          ? graphTimeMs(exception.fields.start as GraphTime)
          : originalStartMs;
        const endMs = exception?.fields.end
          ? graphTimeMs(exception.fields.end as GraphTime)
          : originalStartMs + duration;
        return { stored: master, originalStartMs, startMs, endMs, ...(exception ? { exception } : {}) };
      });
  }

  /** calendarView: single events, occurrences and exceptions overlapping [fromMs, toMs), by start. */
  view(calendarId: string, fromMs: number, toMs: number): ViewItem[] {
    const items: ViewItem[] = [];
    for (const stored of this.calendar(calendarId).events.values()) {
      const candidates = stored.fields.recurrence ? this.occurrencesOf(stored) : [this.resolve(stored.id)];
      items.push(
        ...candidates.filter((i) => i.startMs < toMs && (i.endMs > fromMs || i.startMs === i.endMs)),
      );
    }
    return items.sort((a, b) => a.startMs - b.startMs || idOf(a).localeCompare(idOf(b)));
  }

  /** A view item in Graph's event shape, times in `zone`. */
  render(item: ViewItem, zone = 'UTC'): Json {
    const { stored } = item;
    const fields = { ...stored.fields, ...(item.exception?.fields ?? {}) };
    const isOccurrence = item.originalStartMs !== undefined;
    const version = item.exception?.version ?? stored.version;
    const modified = item.exception?.modified ?? stored.modified;
    const changeKey = Buffer.from(`${idOf(item)}:${version}:${stored.version}`).toString('base64');
    const calendar = this.calendar(stored.calendarId);
    const allDay = fields.isAllDay === true;
    return {
      '@odata.etag': `W/"${changeKey}"`,
      id: idOf(item),
      createdDateTime: offsetString(stored.created),
      lastModifiedDateTime: offsetString(modified),
      changeKey,
      subject: fields.subject ?? '',
      bodyPreview: String((fields.body as Json | undefined)?.content ?? '').slice(0, 255),
      body: fields.body ?? { contentType: 'text', content: '' },
      // An all-day event stays on its dates: Graph renders it at midnight whatever zone is preferred.
      start: allDay ? fields.start : renderTime(item.startMs, zone),
      end: allDay ? fields.end : renderTime(item.endMs, zone),
      isAllDay: allDay,
      originalStartTimeZone: (stored.fields.start as GraphTime).timeZone,
      originalEndTimeZone: (stored.fields.end as GraphTime).timeZone,
      location: fields.location ?? { displayName: '' },
      showAs: fields.showAs ?? 'busy',
      sensitivity: fields.sensitivity ?? 'normal',
      isCancelled: false,
      isOrganizer: true,
      isReminderOn: fields.isReminderOn ?? true,
      reminderMinutesBeforeStart: fields.reminderMinutesBeforeStart ?? 15,
      categories: fields.categories ?? [],
      // The owner's own answer; `organizer` until they answer an item they organized.
      responseStatus: fields.responseStatus ?? { response: 'organizer', time: NEVER },
      attendees: ((fields.attendees as Json[] | undefined) ?? []).map(attendeeJson),
      organizer: { emailAddress: calendar.owner },
      type: isOccurrence
        ? item.exception
          ? 'exception'
          : 'occurrence'
        : stored.fields.recurrence
          ? 'seriesMaster'
          : 'singleInstance',
      seriesMasterId: isOccurrence ? stored.id : null,
      originalStart: isOccurrence ? offsetString(item.originalStartMs ?? 0) : null,
      recurrence: isOccurrence ? null : (stored.fields.recurrence ?? null),
      // Deleted occurrences of a series, as `OID.<master id>.<local date>` (Graph's occurrenceId form).
      ...(stored.fields.recurrence && !isOccurrence
        ? {
            cancelledOccurrences: [...stored.deletedOccurrences]
              .sort((a, b) => a - b)
              .map((ms) => `OID.${stored.id}.${dateIn(ms, seriesZoneName(stored))}`),
          }
        : {}),
      webLink: `https://outlook.office365.com/owa/?itemid=${idOf(item)}`,
      iCalUId: `040000008200E00074C5B7101A82E008${stored.id}`,
    };
  }
}

export function idOf(item: ViewItem): string {
  return item.originalStartMs === undefined
    ? item.stored.id
    : occurrenceId(item.stored.id, item.originalStartMs);
}

/** Graph's "no time": the `time` of a response not given. */
const NEVER = '0001-01-01T00:00:00Z';

/** An attendee as Graph renders one: a type, and a status (`none` until a response is known). */
function attendeeJson(attendee: Json): Json {
  const status = attendee.status as Json | undefined;
  return {
    type: attendee.type ?? 'required',
    status: { response: status?.response ?? 'none', time: status?.time ?? NEVER },
    emailAddress: attendee.emailAddress,
  };
}

function pick(input: Json): Json {
  return Object.fromEntries(Object.entries(input).filter(([key]) => WRITABLE.includes(key)));
}

function renderedTimes(item: ViewItem): Json {
  return { start: renderTime(item.startMs, 'UTC'), end: renderTime(item.endMs, 'UTC') };
}

/** Graph's checks on start/end: known zones, end not before start, all-day on midnights. */
function validateTimes(fields: Json): void {
  const start = fields.start as GraphTime | undefined;
  const end = fields.end as GraphTime | undefined;
  if (!start?.dateTime || !end?.dateTime) throw invalidRequest('start and end are required.');
  for (const time of [start, end]) {
    if (!ianaZone(time.timeZone))
      throw new FakeGraphError(
        400,
        'TimeZoneNotSupportedException',
        `A valid TimeZone value must be specified. The following TimeZone value is not supported: '${time.timeZone}'.`,
      );
  }
  if (graphTimeMs(end) < graphTimeMs(start))
    throw invalidRequest('The end time of an event must be after its start time.');
  if (
    fields.isAllDay === true &&
    !(start.dateTime.includes('T00:00:00') && end.dateTime.includes('T00:00:00'))
  ) {
    throw invalidRequest('An all-day event must start and end at midnight.');
  }
}

/** The zone a series' dates are counted in: its range's recurrenceTimeZone, else its start's. */
function seriesZoneName(stored: StoredEvent): string {
  const recurrence = stored.fields.recurrence as GraphRecurrence;
  return recurrence.range.recurrenceTimeZone ?? (stored.fields.start as GraphTime).timeZone;
}
