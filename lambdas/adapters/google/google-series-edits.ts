import type { EventPatch, EventTime } from '../../core/calendar/event.js';
import { DomainError } from '../../core/errors.js';
import type { WriteOptions } from '../../core/ports/index.js';
import { formatInstant } from '../../core/time/instants.js';
import { DateTime } from '../../core/time/luxon.js';
import type { GoogleEventsApi } from './google-events-api.js';
import { type GoogleEvent, toEventTime, toGoogleEvent } from './google-mapping.js';
import { endAfter, googleTimeMs, ruleCount, shiftByEdit, untilBefore, withRuleEnd } from './google-series.js';

/**
 * Scoped writes on Google. Google addresses an instance as `<series id>_<original start>`; writing
 * to that id edits one occurrence. "All" edits go to the series master; "following" splits the
 * series: the master is ended just before the instance and a new series carries on from it.
 */

/** Fields a new series inherits from the one it splits off. */
const INHERITED: (keyof GoogleEvent)[] = [
  'summary',
  'description',
  'location',
  'attendees',
  'reminders',
  'colorId',
  'transparency',
  'visibility',
];

/**
 * Applies `patch` to `eventId` with `options.scope`; returns what was written (the instance, the
 * master, or for `following` the new series).
 *
 * @example
 * await updateWithScope(events, 'abc_20260316T130000Z', { summary: 'New' }, { scope: 'following' });
 */
export async function updateWithScope(
  events: GoogleEventsApi,
  eventId: string,
  patch: EventPatch,
  options: WriteOptions,
  fallbackZone?: string,
): Promise<GoogleEvent> {
  const needsCurrent = options.scope !== 'this' || Boolean(patch.start) !== Boolean(patch.end);
  const current = needsCurrent ? await read(events, eventId, options.if_match) : undefined;
  const complete = current ? withBothBounds(patch, current) : patch;
  if (options.scope === 'this' || !current?.recurringEventId) {
    return events.patch(eventId, toGoogleEvent(complete, fallbackZone), options.if_match);
  }
  const master = await events.get(current.recurringEventId);
  const original = current.originalStartTime ?? current.start ?? {};
  const isFirst = googleTimeMs(original) <= googleTimeMs(master.start ?? {});
  if (options.scope === 'all' || (options.scope === 'following' && isFirst)) {
    const body = toGoogleEvent(complete, fallbackZone);
    if (complete.start)
      body.start = shiftByEdit(master.start ?? {}, toEventTime(current.start), complete.start);
    if (complete.end) body.end = shiftByEdit(master.end ?? {}, toEventTime(current.end), complete.end);
    return events.patch(master.id ?? '', body, master.etag ?? undefined);
  }
  return splitSeries(events, master, original, complete, fallbackZone);
}

/**
 * Deletes `eventId` with `options.scope`: one occurrence, this and the following ones (the whole
 * series when it is the first), or the whole series.
 *
 * @example
 * await deleteWithScope(events, 'abc_20260316T130000Z', { scope: 'following' });
 */
export async function deleteWithScope(
  events: GoogleEventsApi,
  eventId: string,
  options: WriteOptions,
): Promise<void> {
  if (options.scope === 'this') return events.delete(eventId, options.if_match);
  const current = await read(events, eventId, options.if_match);
  if (!current.recurringEventId) return events.delete(eventId, options.if_match);
  const master = await events.get(current.recurringEventId);
  const original = current.originalStartTime ?? current.start ?? {};
  if (options.scope === 'all' || googleTimeMs(original) <= googleTimeMs(master.start ?? {})) {
    return events.delete(master.id ?? '', master.etag ?? undefined);
  }
  const recurrence = withRuleEnd(master.recurrence ?? [], { until: untilBefore(original) });
  await events.patch(master.id ?? '', { recurrence }, master.etag ?? undefined);
}

/** Reads the event a scoped write starts from, refusing a stale `if_match` before anything is written. */
async function read(
  events: GoogleEventsApi,
  eventId: string,
  ifMatch: string | undefined,
): Promise<GoogleEvent> {
  const current = await events.get(eventId);
  if (ifMatch !== undefined && ifMatch !== current.etag) {
    throw new DomainError(
      'STALE_WRITE',
      `Event "${eventId}" changed since it was read. Get it again and retry with its current etag.`,
      { status: 412, reason: 'conditionNotMet' },
    );
  }
  return current;
}

/**
 * Ends the series before `original` and starts a new one there with the patch applied. The new
 * series is written first: if ending the old one then fails, the new one is removed again, so a
 * failure never loses the following occurrences (at worst they are briefly shown twice).
 */
async function splitSeries(
  events: GoogleEventsApi,
  master: GoogleEvent,
  original: GoogleEvent['start'] & object,
  patch: EventPatch,
  fallbackZone: string | undefined,
): Promise<GoogleEvent> {
  const recurrence = master.recurrence ?? [];
  const count = ruleCount(recurrence);
  let continued = recurrence;
  if (count !== undefined) {
    // COUNT counts occurrences from DTSTART, cancelled ones included: the new series gets the rest.
    const instances = await events.allInstances(master.id ?? '');
    const before = instances.filter(
      (i) => googleTimeMs(i.originalStartTime ?? i.start ?? {}) < googleTimeMs(original),
    ).length;
    continued = withRuleEnd(recurrence, { count: Math.max(1, count - before) });
  }
  const base: GoogleEvent = Object.fromEntries(INHERITED.map((key) => [key, master[key]]));
  const start = original.date
    ? { date: original.date }
    : { dateTime: original.dateTime, timeZone: original.timeZone ?? master.start?.timeZone };
  const body: GoogleEvent = {
    ...base,
    start,
    end: endAfter(start, master.start ?? {}, master.end ?? {}),
    recurrence: continued,
    ...toGoogleEvent(patch, fallbackZone),
  };
  // Google expands a recurring timed event in its zone and refuses one without: keep the series'
  // zone when the patch moved the times without naming one.
  const seriesZone = master.start?.timeZone ?? fallbackZone ?? null;
  for (const key of ['start', 'end'] as const) {
    const time = body[key];
    if (time?.dateTime && !time.timeZone) body[key] = { ...time, timeZone: seriesZone };
  }
  const created = await events.insert(body);
  try {
    const ended = withRuleEnd(recurrence, { until: untilBefore(original) });
    await events.patch(master.id ?? '', { recurrence: ended }, master.etag ?? undefined);
  } catch (error) {
    await events.delete(created.id ?? '').catch(() => undefined);
    throw error;
  }
  return created;
}

/**
 * Fills in the missing bound of a patch that moves only the start or only the end, keeping the
 * event's current duration (Google would otherwise reject an end before the new start).
 */
function withBothBounds(patch: EventPatch, current: GoogleEvent): EventPatch {
  const given = patch.start ?? patch.end;
  if (!given || (patch.start && patch.end)) return patch;
  const start = toEventTime(current.start);
  const end = toEventTime(current.end);
  const sign = patch.start ? 1 : -1;
  let other: EventTime;
  if ('date' in given && 'date' in start && 'date' in end) {
    const days = DateTime.fromISO(end.date).diff(DateTime.fromISO(start.date), 'days').days * sign;
    other = { date: DateTime.fromISO(given.date).plus({ days }).toISODate() ?? given.date };
  } else if ('date_time' in given && 'date_time' in start && 'date_time' in end) {
    const ms = (Date.parse(end.date_time) - Date.parse(start.date_time)) * sign;
    const moved = formatInstant(DateTime.fromISO(given.date_time, { setZone: true }).plus(ms));
    other = given.time_zone ? { date_time: moved, time_zone: given.time_zone } : { date_time: moved };
  } else {
    throw new DomainError(
      'INVALID_INPUT',
      'Give both start and end when switching between all-day and timed.',
    );
  }
  return patch.start ? { ...patch, end: other } : { ...patch, start: other };
}
