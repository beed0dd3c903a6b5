import { DomainError } from '../../errors.js';
import type { DateTime, Zone } from '../luxon.js';
import { type DurationUnit, NUMBER_WORDS, UNITS } from './vocabulary.js';
import { type WallClock, wallClockInZone, wallClockOf } from './wall-clock.js';

/** A signed offset split by meaning: calendar units keep wall-clock time, the rest is elapsed time. */
export interface Offset {
  calendar: { years: number; months: number; weeks: number; days: number };
  elapsedMs: number;
}

const UNIT_MS: Partial<Record<DurationUnit, number>> = { hours: 3_600_000, minutes: 60_000, seconds: 1000 };

/**
 * Builds an offset from (amount, unit) pairs, all with the same sign. Calendar units must be
 * whole numbers ("1.5 days" has no wall-clock meaning); elapsed units may be fractional.
 *
 * @example
 * offsetOf([[2, 'hours'], [30, 'minutes']], 1).elapsedMs; // 9_000_000
 */
export function offsetOf(parts: ReadonlyArray<readonly [number, DurationUnit]>, sign: 1 | -1): Offset {
  const offset: Offset = { calendar: { years: 0, months: 0, weeks: 0, days: 0 }, elapsedMs: 0 };
  for (const [amount, unit] of parts) {
    if (!Number.isFinite(amount)) {
      throw new DomainError('OUT_OF_RANGE', 'Offsets are limited to 10,000 years. Use a smaller amount.', {
        unit,
      });
    }
    const ms = UNIT_MS[unit];
    if (ms !== undefined) {
      offset.elapsedMs += sign * Math.round(amount * ms);
      continue;
    }
    if (!Number.isInteger(amount)) {
      throw new DomainError(
        'UNRECOGNIZED_EXPRESSION',
        `"${amount} ${unit}" is not a whole number of ${unit}: use whole ${unit}, or hours ("in 36 hours").`,
        { unit, amount },
      );
    }
    const key = unit as keyof Offset['calendar'];
    offset.calendar[key] += sign * amount;
  }
  const { years, months, weeks, days } = offset.calendar;
  const spanDays =
    Math.abs(years) * 366 +
    Math.abs(months) * 31 +
    Math.abs(weeks) * 7 +
    Math.abs(days) +
    Math.abs(offset.elapsedMs) / 86_400_000;
  // Beyond this, luxon's arithmetic overflows and RFC 3339's four-digit years run out anyway.
  if (!(spanDays <= MAX_SPAN_DAYS)) {
    throw new DomainError('OUT_OF_RANGE', 'Offsets are limited to 10,000 years. Use a smaller amount.', {
      spanDays,
    });
  }
  return offset;
}

const MAX_SPAN_DAYS = 3_660_000;

// One "<amount> <unit>" piece of a worded duration: digits may touch the unit ("2h"), words may not.
const PART = new RegExp(
  `(\\d+(?:\\.\\d+)?)\\s*(${unitAlternation()})(?![a-z])|(${wordAlternation()})\\s+(${unitAlternation()})(?![a-z])`,
  'gi',
);

function unitAlternation(): string {
  return Object.keys(UNITS)
    .sort((a, b) => b.length - a.length)
    .join('|');
}

function wordAlternation(): string {
  return Object.keys(NUMBER_WORDS)
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/ /g, '\\s+'))
    .join('|');
}

/** Regex source for a worded duration such as "2 hours and 30 minutes" or "a week". */
export const WORDED_DURATION = `(?:${PART.source})(?:(?:\\s*,\\s*|\\s+and\\s+|\\s+)(?:${PART.source}))*`;

/**
 * Reads the (amount, unit) pairs of a worded duration matched by {@link WORDED_DURATION}.
 *
 * @example
 * durationParts('2 hours and 30 minutes'); // [[2, 'hours'], [30, 'minutes']]
 */
export function durationParts(text: string): Array<[number, DurationUnit]> {
  const parts: Array<[number, DurationUnit]> = [];
  for (const match of text.matchAll(PART)) {
    const [, digits, digitUnit, word, wordUnit] = match;
    const amount =
      digits !== undefined ? Number(digits) : NUMBER_WORDS[word!.toLowerCase().replace(/\s+/g, ' ')]!;
    parts.push([amount, UNITS[(digitUnit ?? wordUnit)!.toLowerCase()]!]);
  }
  return parts;
}

/** Where an offset lands: a wall-clock reading (calendar units only) or an exact instant. */
export type OffsetTarget = { kind: 'wall'; wall: WallClock } | { kind: 'instant'; instant: DateTime<true> };

/**
 * Applies an offset to `reference` in `zone`: years, months, weeks and days move the wall clock
 * (so "+1d" across a DST change keeps 09:00 at 09:00); hours, minutes and seconds are exact elapsed
 * time, added after the calendar part (so "in 2 hours" is always exactly 7200 s later).
 *
 * @example
 * applyOffset(ref, offsetOf([[1, 'days']], 1), zone); // { kind: 'wall', wall: same time tomorrow }
 */
export function applyOffset(reference: DateTime<true>, offset: Offset, zone: Zone): OffsetTarget {
  const { years, months, weeks, days } = offset.calendar;
  const hasCalendar = years !== 0 || months !== 0 || weeks !== 0 || days !== 0;
  // Month arithmetic clamps to the month's last day (Jan 31 + 1 month = Feb 28), as luxon does.
  // No calendar units: pure elapsed time from the reference instant, even "+0h". Going through the
  // wall clock would move a reference inside a fall-back overlap to the overlap's first occurrence.
  if (!hasCalendar) return { kind: 'instant', instant: reference.plus({ milliseconds: offset.elapsedMs }) };
  const wall = wallClockOf(reference).plus({ years, months, weeks, days });
  if (offset.elapsedMs === 0) return { kind: 'wall', wall };
  return {
    kind: 'instant',
    instant: wallClockInZone(wall, zone).plus({ milliseconds: offset.elapsedMs }),
  };
}
