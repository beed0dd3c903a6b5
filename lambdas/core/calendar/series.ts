import { type CallWork, NARROW_CALENDAR_READ } from '../call-work.js';
import { DomainError } from '../errors.js';
import { echo } from '../input-limits.js';
import { clampedIso, formatInstant } from '../time/instants.js';
import { DateTime } from '../time/luxon.js';
import { expandRrule, recurrenceBudget } from '../time/recurrence/expand-rrule.js';
import { RFC_5545, wallClockToInstant } from '../time/wall-clock-to-instant.js';
import type { CalendarEvent, EventPatch, EventTime } from './event.js';
import {
  applyPatch,
  eventTimeMs,
  instanceId,
  originalKey,
  overlapsWindow,
  parseInstanceId,
} from './event-times.js';
import {
  formatRecurrence,
  parseRecurrence,
  type RecurrenceSet,
  rulePart,
  withRuleParts,
} from './recurrence-lines.js';

/**
 * A recurring series as native and CalDAV calendars store it: one master (with `recurrence`)
 * and the occurrences edited one by one (overrides, each with `original_start`). Google keeps
 * series server-side; the pure functions here give native and CalDAV the same scope semantics.
 */
export interface Series {
  master: CalendarEvent;
  overrides: CalendarEvent[];
}

/** Most instances one series contributes to one listing: a bounded answer, never a runaway loop. */
export const MAX_SERIES_INSTANCES = 5000;

const WALL = "yyyy-MM-dd'T'HH:mm:ss";

interface SeriesShape {
  zone: string;
  allDay: boolean;
  /** DTSTART on the series' wall clock. */
  dtstart: string;
  startMs: number;
  durationMs: number;
  recurrence: RecurrenceSet;
}

function keyToMs(key: string): number {
  const format = key.length === 8 ? 'yyyyMMdd' : "yyyyMMdd'T'HHmmss'Z'";
  return DateTime.fromFormat(key, format, { zone: 'utc' }).toMillis();
}

function shapeOf(master: CalendarEvent, defaultZone: string | undefined): SeriesShape {
  const allDay = 'date' in master.start;
  const zone = allDay
    ? 'UTC'
    : ('time_zone' in master.start && master.start.time_zone) || defaultZone || 'UTC';
  const startMs = eventTimeMs(master.start);
  return {
    zone,
    allDay,
    dtstart: DateTime.fromMillis(startMs, { zone }).toFormat(WALL),
    startMs,
    durationMs: Math.max(0, eventTimeMs(master.end) - startMs),
    recurrence: parseRecurrence(master.recurrence ?? [], zone),
  };
}

function timeAt(ms: number, shape: SeriesShape, master: CalendarEvent): EventTime {
  if (shape.allDay) return { date: DateTime.fromMillis(ms, { zone: 'utc' }).toISODate()! };
  const text = formatInstant(DateTime.fromMillis(ms, { zone: shape.zone }));
  return 'time_zone' in master.start && master.start.time_zone
    ? { date_time: text, time_zone: shape.zone }
    : { date_time: text };
}

function occurrence(master: CalendarEvent, shape: SeriesShape, startMs: number): CalendarEvent {
  const { recurrence: _omit, ...rest } = master;
  const start = timeAt(startMs, shape, master);
  return {
    ...rest,
    id: instanceId(master.id, start),
    start,
    end: timeAt(startMs + shape.durationMs, shape, master),
    recurring_event_id: master.id,
    original_start: start,
  };
}

/** How far one expansion goes, and what it is charged to. */
export interface ExpansionLimits {
  /**
   * Stop after this many original starts (a page of a listing in start order needs no more than
   * its own size from one series): the answer then holds every occurrence up to `horizon` only.
   */
  limit?: number;
  /** The call's work: every generated start is spent from it (WORK_LIMIT_EXCEEDED past its bound). */
  work?: CallWork;
}

/**
 * Original starts (epoch ms) of the rule's occurrences starting in [fromMs, toMs], exdates applied
 * or not. All pages share one work allowance (the bound is per series, not per page). At most
 * MAX_SERIES_INSTANCES: when more exist, `cut.hit` is set (if given) so that a caller deciding
 * busy time can refuse rather than call the rest free. With `limits.limit`, at most that many,
 * and `cut.limited` set when that stopped it.
 */
function originalStarts(
  shape: SeriesShape,
  fromMs: number,
  toMs: number,
  applyExdates = true,
  cut?: { hit: boolean; limited?: boolean },
  limits: ExpansionLimits = {},
): number[] {
  return [...startPages(shape, fromMs, toMs, applyExdates, cut, limits)].flat();
}

/** Pages of at most this many starts: a caller sharing the thread may yield between two. */
const PAGE = 500;

/** {@link originalStarts}, a page at a time. */
function* startPages(
  shape: SeriesShape,
  fromMs: number,
  toMs: number,
  applyExdates: boolean,
  cut: { hit: boolean; limited?: boolean } | undefined,
  limits: ExpansionLimits,
): Generator<number[]> {
  let found = 0;
  const budget = recurrenceBudget(shape.recurrence.rrule);
  const most = limits.limit ?? Number.POSITIVE_INFINITY;
  let after = clampedIso(Math.max(fromMs, shape.startMs));
  const before = clampedIso(toMs);
  if (Date.parse(after) > toMs) return;
  for (;;) {
    const page = expandRrule({
      rrule: shape.recurrence.rrule,
      dtstart: shape.dtstart,
      timezone: shape.zone,
      durationMinutes: 0,
      count: Math.min(PAGE, most - found),
      exdates: applyExdates ? shape.recurrence.exdates : [],
      after,
      before,
      budget,
    });
    limits.work?.spend(page.instances.length, NARROW_CALENDAR_READ);
    found += page.instances.length;
    yield page.instances.map((instance) => Date.parse(instance.start));
    if (!page.truncated || !page.nextAfter) return;
    if (found >= most) {
      if (cut) cut.limited = true;
      return;
    }
    if (found >= MAX_SERIES_INSTANCES) {
      if (cut) cut.hit = true;
      return;
    }
    after = page.nextAfter;
  }
}

/**
 * The occurrences of a series that overlap [fromMs, toMs), in start order: generated instances,
 * with edited ones replacing theirs, cancelled and excluded ones left out.
 *
 * @example
 * expandSeries(series, Date.parse('2026-03-01T00:00:00Z'), Date.parse('2026-04-01T00:00:00Z'), 'Europe/London');
 */
export function expandSeries(
  series: Series,
  fromMs: number,
  toMs: number,
  defaultZone?: string,
): CalendarEvent[] {
  return expandSeriesWithin(series, fromMs, toMs, defaultZone).events;
}

/**
 * {@link expandSeries}, saying whether the answer is whole: `complete` is false when the rule
 * has more than MAX_SERIES_INSTANCES occurrences in the window, so occurrences after the last
 * one returned are missing. Busy time must not treat that missing part as free. With
 * `limits.limit`, `horizon` is set when the limit stopped the expansion: the answer holds every
 * occurrence starting up to that instant (edited ones included), later ones only in part.
 *
 * @example
 * expandSeriesWithin(everySecond, from, from + 86_400_000).complete; // false
 * expandSeriesWithin(hourly, from, to, 'UTC', { limit: 11 }).horizon; // the 11th start
 */
export function expandSeriesWithin(
  series: Series,
  fromMs: number,
  toMs: number,
  defaultZone?: string,
  limits: ExpansionLimits = {},
): Expansion {
  const shape = shapeOf(series.master, defaultZone);
  const cut: { hit: boolean; limited?: boolean } = { hit: false };
  const starts = originalStarts(shape, fromMs - shape.durationMs, toMs, true, cut, limits);
  const generated = starts.map((startMs) => occurrence(series.master, shape, startMs));
  return assemble(series, generated, fromMs, toMs, cut.limited ? starts.at(-1) : undefined, !cut.hit);
}

/**
 * {@link expandSeriesWithin} for a call that shares the thread: it yields (and stops, once the
 * call is cancelled) between pages of a few hundred occurrences, so a series of thousands never
 * holds the event loop for all of them.
 *
 * @example
 * await expandSeriesSharing(series, from, to, 'UTC', { work });
 */
export async function expandSeriesSharing(
  series: Series,
  fromMs: number,
  toMs: number,
  defaultZone: string | undefined,
  limits: ExpansionLimits & { work: CallWork },
): Promise<Expansion> {
  const shape = shapeOf(series.master, defaultZone);
  const cut: { hit: boolean; limited?: boolean } = { hit: false };
  const generated: CalendarEvent[] = [];
  let last: number | undefined;
  for (const page of startPages(shape, fromMs - shape.durationMs, toMs, true, cut, limits)) {
    await limits.work.pass();
    for (const startMs of page) generated.push(occurrence(series.master, shape, startMs));
    last = page.at(-1) ?? last;
  }
  return assemble(series, generated, fromMs, toMs, cut.limited ? last : undefined, !cut.hit);
}

/** What {@link expandSeriesWithin} answers. */
export interface Expansion {
  events: CalendarEvent[];
  complete: boolean;
  horizon?: number;
}

/** Generated occurrences with edited ones replacing theirs, cancelled ones and those outside the window left out. */
function assemble(
  series: Series,
  generated: CalendarEvent[],
  fromMs: number,
  toMs: number,
  horizon: number | undefined,
  complete: boolean,
): Expansion {
  const overrides = new Map(series.overrides.map((o) => [originalKey(o.original_start ?? o.start), o]));
  const byKey = new Map<string, CalendarEvent>();
  for (const instance of generated) {
    const key = originalKey(instance.start);
    byKey.set(key, overrides.get(key) ?? instance);
  }
  // An edited occurrence moved into the window from outside it still belongs there.
  for (const [key, override] of overrides) if (!byKey.has(key)) byKey.set(key, override);
  const events = [...byKey.values()]
    .filter((event) => event.status !== 'cancelled' && overlapsWindow(event, fromMs, toMs))
    .sort((a, b) => eventTimeMs(a.start) - eventTimeMs(b.start) || a.id.localeCompare(b.id));
  return { events, complete, ...(horizon === undefined ? {} : { horizon }) };
}

/** The occurrence an instance id names, as currently stored or generated; NOT_FOUND otherwise. */
export function findOccurrence(series: Series, id: string, defaultZone?: string): CalendarEvent {
  const parsed = parseInstanceId(id);
  const notFound = () =>
    new DomainError('NOT_FOUND', `Event ${echo(id)} is not an occurrence of series "${series.master.id}".`, {
      event_id: id,
    });
  if (!parsed || parsed.masterId !== series.master.id) throw notFound();
  const override = series.overrides.find((o) => originalKey(o.original_start ?? o.start) === parsed.key);
  if (override) return override;
  const shape = shapeOf(series.master, defaultZone);
  const ms = keyToMs(parsed.key);
  if (!originalStarts(shape, ms, ms).includes(ms)) throw notFound();
  return occurrence(series.master, shape, ms);
}

/** Scope `this`: edits one occurrence; the rest of the series is unchanged. */
export function editOccurrence(
  series: Series,
  id: string,
  patch: EventPatch,
  defaultZone?: string,
): { series: Series; written: CalendarEvent } {
  if (patch.recurrence !== undefined) {
    throw new DomainError(
      'INVALID_INPUT',
      'One occurrence cannot get its own recurrence: use scope "all" or "following".',
    );
  }
  const current = findOccurrence(series, id, defaultZone);
  const written = applyPatch(current, patch);
  const key = originalKey(current.original_start ?? current.start);
  const others = series.overrides.filter((o) => originalKey(o.original_start ?? o.start) !== key);
  return { series: { master: series.master, overrides: [...others, written] }, written };
}

function shiftWall(wall: string, deltaMs: number): string {
  return DateTime.fromISO(wall, { zone: 'utc' }).plus({ milliseconds: deltaMs }).toFormat(WALL);
}

/**
 * Scope `all`: edits the master. Given the instance the caller was looking at, a new start/end
 * for it moves every occurrence by the same wall-clock shift (exclusions and edited occurrences
 * move with them, so they stay attached).
 */
export function editSeries(
  series: Series,
  patch: EventPatch,
  viaInstanceId?: string,
  defaultZone?: string,
): { series: Series; written: CalendarEvent } {
  const { master } = series;
  const shape = shapeOf(master, defaultZone);
  const seen =
    viaInstanceId && viaInstanceId !== master.id
      ? findOccurrence(series, viaInstanceId, defaultZone)
      : master;
  const wallOf = (time: EventTime) =>
    DateTime.fromMillis(eventTimeMs(time), { zone: shape.zone })
      .setZone('utc', { keepLocalTime: true })
      .toMillis();
  const startShift = patch.start ? wallOf(patch.start) - wallOf(seen.original_start ?? seen.start) : 0;
  const endShift = patch.end ? wallOf(patch.end) - wallOf(seen.end) : startShift;
  const moveWall = (time: EventTime, shift: number): EventTime => {
    return timeAt(wallClockToInstant(wallOf(time) + shift, shape.zone, RFC_5545), shape, master);
  };
  const { start: _s, end: _e, ...rest } = patch;
  const timing =
    startShift !== 0 || endShift !== startShift
      ? { start: moveWall(master.start, startShift), end: moveWall(master.end, endShift) }
      : {};
  const recurrence =
    startShift === 0
      ? shape.recurrence
      : { ...shape.recurrence, exdates: shape.recurrence.exdates.map((wall) => shiftWall(wall, startShift)) };
  const written = applyPatch(master, {
    ...rest,
    ...timing,
    recurrence: patch.recurrence ?? formatRecurrence(recurrence, shape.zone, shape.allDay),
  });
  parseRecurrence(written.recurrence ?? [], shape.zone);
  const overrides = series.overrides.map((o) => {
    if (startShift === 0) return { ...o, recurring_event_id: written.id };
    const original = moveWall(o.original_start ?? o.start, startShift);
    return { ...o, id: instanceId(written.id, original), original_start: original };
  });
  return { series: { master: written, overrides }, written };
}

/**
 * Scope `following`: ends the series just before the given occurrence and starts a new series
 * (id `newMasterId`) there. COUNT is shared out between the two; UNTIL stays on the tail.
 * `head` is undefined when the occurrence is the first one (the whole series moves).
 */
export function splitSeries(
  series: Series,
  id: string,
  newMasterId: string,
  defaultZone?: string,
): { head?: Series; tail: Series } {
  const occurrenceSeen = findOccurrence(series, id, defaultZone);
  const shape = shapeOf(series.master, defaultZone);
  const splitMs = eventTimeMs(occurrenceSeen.original_start ?? occurrenceSeen.start);
  const before = splitMs <= shape.startMs ? [] : originalStarts(shape, shape.startMs, splitMs - 1, false);
  if (before.length === 0) return { tail: series };
  const count = rulePart(shape.recurrence.rrule, 'COUNT');
  const splitWall = DateTime.fromMillis(splitMs, { zone: shape.zone }).toFormat(WALL);
  const until = shape.allDay
    ? DateTime.fromMillis(splitMs, { zone: 'utc' }).minus({ days: 1 }).toFormat('yyyyMMdd')
    : DateTime.fromMillis(splitMs - 1000, { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss'Z'");
  const headRule = count
    ? withRuleParts(shape.recurrence.rrule, { COUNT: before.length })
    : withRuleParts(shape.recurrence.rrule, { UNTIL: until, COUNT: null });
  const tailRule = count
    ? withRuleParts(shape.recurrence.rrule, { COUNT: Number(count) - before.length })
    : shape.recurrence.rrule;
  const isHead = (o: CalendarEvent) => eventTimeMs(o.original_start ?? o.start) < splitMs;
  const headMaster: CalendarEvent = {
    ...series.master,
    recurrence: formatRecurrence(
      {
        ...shape.recurrence,
        rrule: headRule,
        exdates: shape.recurrence.exdates.filter((w) => w < splitWall),
      },
      shape.zone,
      shape.allDay,
    ),
  };
  const tailStart = timeAt(splitMs, shape, series.master);
  const tailMaster: CalendarEvent = {
    ...series.master,
    id: newMasterId,
    start: tailStart,
    end: timeAt(splitMs + shape.durationMs, shape, series.master),
    recurrence: formatRecurrence(
      {
        ...shape.recurrence,
        rrule: tailRule,
        exdates: shape.recurrence.exdates.filter((w) => w >= splitWall),
      },
      shape.zone,
      shape.allDay,
    ),
  };
  const tailOverrides = series.overrides
    .filter((o) => !isHead(o))
    .map((o) => ({
      ...o,
      id: instanceId(newMasterId, o.original_start ?? o.start),
      recurring_event_id: newMasterId,
    }));
  return {
    head: { master: headMaster, overrides: series.overrides.filter(isHead) },
    tail: { master: tailMaster, overrides: tailOverrides },
  };
}

/** Deletes one occurrence (scope `this`): an EXDATE for it, and its edit, if any, dropped. */
export function excludeOccurrence(series: Series, id: string, defaultZone?: string): Series {
  const current = findOccurrence(series, id, defaultZone);
  const shape = shapeOf(series.master, defaultZone);
  const original = current.original_start ?? current.start;
  const key = originalKey(original);
  const wall = DateTime.fromMillis(eventTimeMs(original), { zone: shape.zone }).toFormat(WALL);
  const recurrence = {
    ...shape.recurrence,
    exdates: [...new Set([...shape.recurrence.exdates, wall])].sort(),
  };
  return {
    master: { ...series.master, recurrence: formatRecurrence(recurrence, shape.zone, shape.allDay) },
    overrides: series.overrides.filter((o) => originalKey(o.original_start ?? o.start) !== key),
  };
}

/** Deletes an occurrence and all after it (scope `following`); undefined when nothing remains. */
export function truncateSeries(series: Series, id: string, defaultZone?: string): Series | undefined {
  return splitSeries(series, id, `${series.master.id}-discarded`, defaultZone).head;
}
