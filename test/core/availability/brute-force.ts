/**
 * A deliberately naive model of availability for the property tests: every minute of the window
 * is looked at on its own. It shares no code with lambdas/core/availability and reads wall
 * clocks through Intl directly, not Luxon.
 */
import type { Interval } from '../../../lambdas/core/calendar/busy-intervals.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

export interface Hours {
  startMinute: number;
  /** 1..1440; at or before startMinute means the shift ends the next day. */
  endMinute: number;
  zone: string;
  days: readonly number[];
}

/** Maximal runs of minutes where `on(i)` holds, as [start, end) minute indexes. */
function runs(count: number, on: (i: number) => boolean): [number, number][] {
  const found: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    if (!on(i)) continue;
    const start = i;
    while (i < count && on(i)) i++;
    found.push([start, i]);
  }
  return found;
}

/** Busy blocks: runs of minutes some calendar covers; source_count = calendars covering any minute of the run. */
export function bruteBusy(calendars: Interval[][], from: number, to: number) {
  const count = (to - from) / MINUTE;
  const masks = new Int32Array(count);
  calendars.forEach((intervals, c) => {
    for (const { start, end } of intervals) {
      for (let t = start; t < end; t += MINUTE)
        if (t >= from && t < to) masks[(t - from) / MINUTE]! |= 1 << c;
    }
  });
  return runs(count, (i) => masks[i] !== 0).map(([a, b]) => {
    let union = 0;
    for (let i = a; i < b; i++) union |= masks[i]!;
    let sources = 0;
    for (; union; union &= union - 1) sources++;
    return { start: from + a * MINUTE, end: from + b * MINUTE, source_count: sources };
  });
}

const walls = new Map<string, Map<number, number>>();

function wallClock(zone: string): (t: number) => number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  // Remembered per zone and minute: the scenarios revisit the same days, and Intl is slow.
  const seen = walls.get(zone) ?? new Map<number, number>();
  walls.set(zone, seen);
  return (t) => {
    let wall = seen.get(t);
    if (wall === undefined) {
      const p = Object.fromEntries(format.formatToParts(t).map((part) => [part.type, Number(part.value)]));
      wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
      seen.set(t, wall);
    }
    return wall;
  };
}

/**
 * Whether each minute is inside working hours. A clock that falls back repeats times, so the
 * minute is judged by the latest time the clock has shown so far (its running maximum): hours
 * start when the clock first reads `start` and end when it first reads `end`.
 */
function workingMinutes(hours: Hours, from: number, count: number): boolean[] {
  const wall = wallClock(hours.zone);
  const overnight = hours.endMinute <= hours.startMinute;
  const isDay = (dayNumber: number) => hours.days.includes(((((dayNumber + 3) % 7) + 7) % 7) + 1);
  let shown = Number.NEGATIVE_INFINITY;
  for (let t = from - 6 * 3_600_000; t < from; t += MINUTE) shown = Math.max(shown, wall(t));
  const result: boolean[] = [];
  for (let i = 0; i < count; i++) {
    shown = Math.max(shown, wall(from + i * MINUTE));
    const day = Math.floor(shown / DAY);
    const minute = (shown - day * DAY) / MINUTE;
    result.push(
      overnight
        ? (isDay(day) && minute >= hours.startMinute) || (isDay(day - 1) && minute < hours.endMinute)
        : isDay(day) && minute >= hours.startMinute && minute < hours.endMinute,
    );
  }
  return result;
}

/** Free slots: runs of minutes inside working hours and at least `buffer` minutes from every busy minute. */
export function bruteFree(
  intervals: Interval[],
  from: number,
  to: number,
  options: { minDuration: number; buffer: number; hours?: Hours },
) {
  const count = (to - from) / MINUTE;
  const blocked = new Uint8Array(count);
  for (const { start, end } of intervals) {
    if (end <= start) continue;
    for (let t = start - options.buffer * MINUTE; t < end + options.buffer * MINUTE; t += MINUTE) {
      if (t >= from && t < to) blocked[(t - from) / MINUTE] = 1;
    }
  }
  const working = options.hours ? workingMinutes(options.hours, from, count) : undefined;
  return runs(count, (i) => blocked[i] === 0 && (working?.[i] ?? true))
    .filter(([a, b]) => b - a >= Math.max(1, options.minDuration))
    .map(([a, b]) => ({ start: from + a * MINUTE, end: from + b * MINUTE, duration_minutes: b - a }));
}

/** Whether any minute of [slot) is covered by one of the intervals, and which ones. */
export function bruteConflicts(intervals: Interval[], slot: Interval): Interval[] {
  return intervals.filter((interval) => {
    for (let t = slot.start; t < slot.end; t += MINUTE)
      if (t >= interval.start && t < interval.end) return true;
    return false;
  });
}
