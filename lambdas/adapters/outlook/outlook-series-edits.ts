import type { CalendarEvent, EventPatch, EventTime } from '../../core/calendar/event.js';
import { DomainError } from '../../core/errors.js';
import type { CalendarRef, WriteOptions } from '../../core/ports/index.js';
import { formatInstant } from '../../core/time/instants.js';
import { DateTime } from '../../core/time/luxon.js';
import { RFC_5545, wallClockToInstant } from '../../core/time/wall-clock-to-instant.js';
import { occurrenceDate } from './graph-recurrence.js';
import { eventZone, type GraphEvent, toCalendarEvent, toGraphEvent, toGraphTime } from './outlook-mapping.js';

/**
 * Scoped writes on Outlook. Graph edits one occurrence by its own id (it becomes an exception)
 * and a whole series through its master; "following" splits the series: a new series is created
 * from the occurrence on, then the old one's range ends the day before (Graph ranges end on a
 * local date, and a pattern has at most one occurrence a day).
 */

export interface SeriesApi {
  calendar: CalendarRef;
  get(id: string): Promise<GraphEvent>;
  patch(id: string, body: Partial<GraphEvent>, ifMatch?: string): Promise<GraphEvent>;
  delete(id: string, ifMatch?: string): Promise<void>;
  create(body: Partial<GraphEvent>): Promise<GraphEvent>;
  instances(masterId: string, from: string, to: string): Promise<GraphEvent[]>;
}

/** Fields a new series inherits from the one it splits off. */
const INHERITED = [
  'subject',
  'body',
  'location',
  'attendees',
  'showAs',
  'sensitivity',
  'isReminderOn',
  'reminderMinutesBeforeStart',
  'categories',
] as const;

/**
 * Applies `patch` with `options.scope`; returns what was written (the occurrence, the master, or
 * for `following` the new series). A patch to status `cancelled` deletes (Graph has no status).
 *
 * @example
 * await updateWithScope(api, occurrenceId, { summary: 'New' }, { scope: 'following' });
 */
export async function updateWithScope(
  api: SeriesApi,
  eventId: string,
  patch: EventPatch,
  options: WriteOptions,
): Promise<GraphEvent> {
  const zone = api.calendar.time_zone;
  if (patch.status === 'cancelled') {
    const current = await read(api, eventId, options.if_match);
    await deleteWithScope(api, eventId, options);
    return { ...current, isCancelled: true };
  }
  if (options.scope === 'this') return api.patch(eventId, toGraphEvent(patch, zone).body, options.if_match);
  const current = await read(api, eventId, options.if_match);
  if (!current.seriesMasterId) return api.patch(eventId, toGraphEvent(patch, zone).body, options.if_match);
  const master = await api.get(current.seriesMasterId);
  const domain = toCalendarEvent(current, api.calendar);
  const masterDomain = toCalendarEvent(master, api.calendar);
  const isFirst = instantMs(domain.original_start ?? domain.start) <= instantMs(masterDomain.start);
  if (options.scope === 'all' || isFirst) {
    const { start, end, ...rest } = patch;
    const body = toGraphEvent(rest, zone).body;
    const seriesZone = eventZone(master, api.calendar) ?? 'UTC';
    if (start)
      body.start = toGraphTime(shiftByEdit(masterDomain.start, domain.start, start, seriesZone), seriesZone);
    if (end) body.end = toGraphTime(shiftByEdit(masterDomain.end, domain.end, end, seriesZone), seriesZone);
    if (body.start && master.recurrence) {
      const startDate = body.start.dateTime.slice(0, 10);
      if (startDate !== master.recurrence.range.startDate) {
        body.recurrence = { ...master.recurrence, range: { ...master.recurrence.range, startDate } };
      }
    }
    return api.patch(master.id, body, master['@odata.etag']);
  }
  return splitSeries(api, master, masterDomain, domain, patch);
}

/**
 * Deletes with `options.scope`: one occurrence, it and the following ones (the whole series
 * from its first), or the whole series.
 */
export async function deleteWithScope(api: SeriesApi, eventId: string, options: WriteOptions): Promise<void> {
  if (options.scope === 'this') return api.delete(eventId, options.if_match);
  const current = await read(api, eventId, options.if_match);
  if (!current.seriesMasterId) return api.delete(eventId, options.if_match);
  const master = await api.get(current.seriesMasterId);
  const domain = toCalendarEvent(current, api.calendar);
  const masterDomain = toCalendarEvent(master, api.calendar);
  if (
    options.scope === 'all' ||
    instantMs(domain.original_start ?? domain.start) <= instantMs(masterDomain.start)
  ) {
    return api.delete(master.id, master['@odata.etag']);
  }
  await api.patch(master.id, { recurrence: endedBefore(master, domain) }, master['@odata.etag']);
}

async function read(api: SeriesApi, eventId: string, ifMatch: string | undefined): Promise<GraphEvent> {
  const current = await api.get(eventId);
  if (ifMatch !== undefined && ifMatch !== current['@odata.etag']) {
    throw new DomainError(
      'STALE_WRITE',
      `Event "${eventId}" changed since it was read. Get it again and retry with its current etag.`,
      { status: 412, reason: 'ErrorIrresolvableConflict' },
    );
  }
  return current;
}

/** The master's recurrence ending on the local day before `occurrence` originally started. */
function endedBefore(master: GraphEvent, occurrence: CalendarEvent): GraphEvent['recurrence'] {
  if (!master.recurrence) throw new DomainError('INVALID_INPUT', 'The series has no recurrence to end.');
  const endDate =
    DateTime.fromISO(localDate(occurrence.original_start ?? occurrence.start))
      .minus({ days: 1 })
      .toISODate() ?? '';
  return { ...master.recurrence, range: { ...master.recurrence.range, type: 'endDate', endDate } };
}

/**
 * Starts a new series at the occurrence with the patch applied, then ends the old one the day
 * before; if ending the old one fails the new one is removed again, so the following occurrences
 * are never lost (at worst briefly shown twice).
 */
async function splitSeries(
  api: SeriesApi,
  master: GraphEvent,
  masterDomain: CalendarEvent,
  occurrence: CalendarEvent,
  patch: EventPatch,
): Promise<GraphEvent> {
  const recurrence = master.recurrence;
  if (!recurrence) throw new DomainError('INVALID_INPUT', 'The series has no recurrence to split.');
  const seriesZone = eventZone(master, api.calendar) ?? 'UTC';
  const original = occurrence.original_start ?? occurrence.start;
  const duration = instantMs(masterDomain.end) - instantMs(masterDomain.start);
  const start = patch.start ?? original;
  const end = patch.end ?? ('date' in original ? masterDomain.end : endAfter(original, duration, seriesZone));
  let range = { ...recurrence.range, startDate: localDate(start, seriesZone) };
  if (recurrence.range.type === 'numbered') {
    // The count runs from the series' first occurrence, deleted ones included.
    const before = await api.instances(master.id, isoOf(masterDomain.start), isoOf(original));
    const cancelled = (master.cancelledOccurrences ?? []).filter(
      (id) => (occurrenceDate(id) ?? '') < localDate(original, seriesZone),
    ).length;
    const remaining = (recurrence.range.numberOfOccurrences ?? 1) - before.length - cancelled;
    range = { ...range, numberOfOccurrences: Math.max(1, remaining) };
  }
  const inherited = Object.fromEntries(
    INHERITED.map((key) => [key, master[key]]).filter(([, v]) => v !== undefined),
  );
  const { recurrence: _ignored, ...rest } = patch;
  const body = {
    ...inherited,
    ...toGraphEvent({ ...rest, start, end }, seriesZone).body,
    recurrence: { pattern: recurrence.pattern, range },
  };
  const created = await api.create(body);
  try {
    await api.patch(master.id, { recurrence: endedBefore(master, occurrence) }, master['@odata.etag']);
  } catch (error) {
    await api.delete(created.id).catch(() => undefined);
    throw error;
  }
  return created;
}

function instantMs(time: EventTime): number {
  return 'date' in time ? Date.parse(`${time.date}T00:00:00Z`) : Date.parse(time.date_time);
}

function isoOf(time: EventTime): string {
  return new Date(instantMs(time)).toISOString();
}

/** The local date of a time in the series' zone (an all-day date as it is). */
function localDate(time: EventTime, zone?: string): string {
  if ('date' in time) return time.date;
  const dt = DateTime.fromISO(time.date_time, { setZone: true });
  return (zone ? dt.setZone(zone) : dt).toISODate() ?? '';
}

function endAfter(start: EventTime, durationMs: number, zone: string): EventTime {
  if ('date' in start) return start;
  const end = DateTime.fromMillis(Date.parse(start.date_time) + durationMs, {
    zone: start.time_zone ?? zone,
  });
  return { date_time: formatInstant(end), ...(start.time_zone ? { time_zone: start.time_zone } : {}) };
}

/** Wall-clock time as a UTC DateTime with the same fields, so differences ignore DST shifts. */
function wallClock(time: EventTime, zone: string): DateTime {
  if ('date' in time) return DateTime.fromISO(time.date, { zone: 'utc' });
  const local = DateTime.fromISO(time.date_time, { setZone: true }).setZone(time.time_zone ?? zone);
  return DateTime.fromObject(local.toObject(), { zone: 'utc' });
}

/**
 * Moves a series master's start or end by the wall-clock change an edit made to one occurrence
 * (`from` → `to`), so that "all" edits keep every occurrence at the same new local time.
 */
function shiftByEdit(master: EventTime, from: EventTime, to: EventTime, zone: string): EventTime {
  if ('date' in master !== 'date' in to || 'date' in from !== 'date' in to) {
    throw new DomainError(
      'INVALID_INPUT',
      'Switching a whole series between all-day and timed is not supported; recreate the series.',
    );
  }
  const delta = wallClock(to, zone).diff(wallClock(from, zone));
  const moved = wallClock(master, zone).plus(delta);
  if ('date' in master) return { date: moved.toISODate() ?? master.date };
  const targetZone = ('time_zone' in to && to.time_zone) || zone;
  const local = DateTime.fromMillis(wallClockToInstant(moved.toMillis(), targetZone, RFC_5545), {
    zone: targetZone,
  });
  return { date_time: formatInstant(local), time_zone: targetZone };
}
