import type { Interval } from '../calendar/busy-intervals.js';
import { DomainError } from '../errors.js';
import { echo } from '../input-limits.js';
import { DateTime, type IANAZone } from '../time/luxon.js';
import { requireZone } from '../time/zones.js';
import { firstInstantAt } from './wall-clock.js';

/**
 * Hours a person is available, on the wall clock of one zone, on some ISO weekdays
 * (1 = Monday … 7 = Sunday). `end` may be "24:00" (midnight at the end of the day). An `end`
 * before `start` is an overnight shift: it ends the next day, and `days` are the days it starts.
 */
export interface WorkingHours {
  /** "HH:mm", 00:00–23:59. */
  start: string;
  /** "HH:mm", 00:00–24:00, different from `start`. */
  end: string;
  /** IANA zone whose wall clock the hours are read on. */
  zone: string;
  /** ISO weekdays the hours start on. @default [1, 2, 3, 4, 5] (Monday to Friday) */
  days?: readonly number[];
}

const WEEKDAYS = [1, 2, 3, 4, 5] as const;
const DAY_MS = 86_400_000;
const CLOCK = /^(\d{1,2}):(\d{2})$/;
const RANGE = /^\s*(\d{1,2}:\d{2})\s*[-–]\s*(\d{1,2}:\d{2})\s*$/;
const FIELD = 'working_hours';

function invalid(message: string): DomainError {
  return new DomainError('INVALID_INPUT', message, { field: FIELD });
}

function minuteOf(text: string, allowMidnightEnd: boolean): number {
  const match = CLOCK.exec(text);
  const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
  const limit = allowMidnightEnd ? 1440 : 1439;
  if (!match || Number(match[2]) > 59 || !(minutes <= limit)) {
    throw invalid(
      `Working hours need times as HH:mm between 00:00 and ${allowMidnightEnd ? '24:00' : '23:59'}; got ${echo(text)}.`,
    );
  }
  return minutes;
}

/**
 * Parses working hours written as "09:00-17:00" (an en dash and one-digit hours are accepted).
 * Throws INVALID_INPUT when a time is malformed, the start is 24:00, start and end are equal,
 * or a day is not an ISO weekday; and INVALID_TIMEZONE for an unknown zone.
 *
 * @example
 * parseWorkingHours('9:00-17:30', 'Europe/London');
 * // { start: '09:00', end: '17:30', zone: 'Europe/London', days: [1, 2, 3, 4, 5] }
 * parseWorkingHours('22:00-06:00', 'Asia/Kathmandu', [1, 2, 3, 4]); // overnight, starting Mon–Thu
 */
export function parseWorkingHours(text: string, zone: string, days?: readonly number[]): WorkingHours {
  const match = RANGE.exec(text);
  if (!match) throw invalid(`Working hours look like "09:00-17:00"; got ${echo(text)}.`);
  const pad = (clock: string) => clock.padStart(5, '0');
  const hours = { start: pad(match[1]!), end: pad(match[2]!), zone, days: days ?? [...WEEKDAYS] };
  // The zone comes back spelt as IANA spells it ("asia/kathmandu" → "Asia/Kathmandu").
  return { ...hours, zone: resolveWorkingHours(hours).zone.name };
}

/** Working hours checked and reduced to minutes; `endMinute` > 1440 for an overnight shift. */
export interface ResolvedWorkingHours {
  startMinute: number;
  endMinute: number;
  zone: IANAZone;
  days: ReadonlySet<number>;
}

/**
 * Validates working hours (see {@link parseWorkingHours} for the errors) and reduces them to
 * minutes of the day.
 *
 * @example
 * resolveWorkingHours({ start: '22:00', end: '06:00', zone: 'UTC' }).endMinute; // 1800 (06:00 next day)
 */
export function resolveWorkingHours(hours: WorkingHours): ResolvedWorkingHours {
  const startMinute = minuteOf(hours.start, false);
  let endMinute = minuteOf(hours.end, true);
  // Equal times could mean no hours or all day; "00:00-24:00" says all day without doubt.
  if (endMinute === startMinute) {
    throw invalid(
      `Working hours start and end at the same time (${hours.start}); use "00:00-24:00" for all day.`,
    );
  }
  if (endMinute < startMinute) endMinute += 1440;
  const days = hours.days ?? WEEKDAYS;
  if (days.length === 0 || days.some((d) => !Number.isInteger(d) || d < 1 || d > 7)) {
    throw invalid('Working days are ISO weekdays from 1 (Monday) to 7 (Sunday), at least one.');
  }
  return { startMinute, endMinute, zone: requireZone(hours.zone, `${FIELD}.zone`), days: new Set(days) };
}

/**
 * The working-hours windows inside [from, to), in order, disjoint, touching windows joined (so
 * "00:00-24:00" on consecutive days is one window). Each day's window runs from the first moment
 * the zone's clock reads `start` on that day to the first moment it reads `end` (see
 * {@link firstInstantAt}), so it is an hour shorter or longer when it spans a DST change.
 *
 * @example
 * workingWindows({ start: '09:00', end: '17:00', zone: 'Asia/Kathmandu' },
 *   Date.parse('2026-03-16T00:00:00Z'), Date.parse('2026-03-17T00:00:00Z'));
 * // [{ start: Date.parse('2026-03-16T03:15:00Z'), end: Date.parse('2026-03-16T11:15:00Z') }]
 */
export function workingWindows(hours: WorkingHours, from: number, to: number): Interval[] {
  const { startMinute, endMinute, zone, days } = resolveWorkingHours(hours);
  const first = DateTime.fromMillis(from, { zone });
  const last = DateTime.fromMillis(to, { zone });
  // Local dates are walked as UTC midnights: a UTC day always has 24 hours, so adding DAY_MS
  // steps one calendar date exactly (and far faster than Luxon's plus()). The day before `from`
  // is included because its overnight shift may run into the window, and the day after `to`
  // in case a clock that fell back across midnight had already shown that date.
  const lastDay = Date.UTC(last.year, last.month - 1, last.day) + DAY_MS;
  const windows: Interval[] = [];
  for (let day = Date.UTC(first.year, first.month - 1, first.day) - DAY_MS; day <= lastDay; day += DAY_MS) {
    const date = new Date(day);
    if (!days.has(date.getUTCDay() || 7)) continue;
    const local = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    const start = Math.max(from, firstInstantAt(local, startMinute, zone));
    const end = Math.min(to, firstInstantAt(local, endMinute, zone));
    if (!(end > start)) continue;
    const previous = windows.at(-1);
    if (previous && start <= previous.end) previous.end = Math.max(previous.end, end);
    else windows.push({ start, end });
  }
  return windows;
}
