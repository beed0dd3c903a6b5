import { Meridiem, type ParsingComponents, type ParsingContext } from 'chrono-node';
import type { DateTime } from '../luxon.js';
import type { WallClock } from './wall-clock.js';

/**
 * How our chrono parsers hand results to chrono's refiners. chrono merges a date-only result with
 * a time-only one ("tomorrow" + "at 2pm") by looking at which components are *certain*, so:
 * - a date we computed is certain (assigned); the time of day that goes with it is implied, so a
 *   following time can still replace it;
 * - an exact instant ("now", "in 2 hours") is fully certain and carries its UTC offset, which
 *   tells the resolver not to reinterpret it as a wall-clock reading.
 * Every result is tagged `meridian/<category>` (chrono's own parsers through a wrapper that also
 * replaces their implied time of day, which chrono derives with host-local Date arithmetic). The
 * resolver never reads an implied date: a result without a certain day means today.
 */

/** What the tool reports as `matched_category`; "combined" when a date and a time were merged. */
export const CATEGORIES = [
  'anchored',
  'weekday',
  'time_of_day',
  'explicit_time',
  'offset',
  'period_boundary',
  'ordinal',
  'business_day',
  'calendar_date',
  'passthrough',
  'combined',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const TAG_PREFIX = 'meridian/';
/** Marks "midnight", which means the end of the day it is attached to. */
export const MIDNIGHT_TAG = 'meridian/midnight';

/** A date with its time implied from `wall` (00:00 for plain dates, 23:59:59 for "end of"). */
export function dateComponents(
  context: ParsingContext,
  wall: WallClock,
  category: Category,
): ParsingComponents {
  return context
    .createParsingComponents({ year: wall.year, month: wall.month, day: wall.day })
    .imply('hour', wall.hour)
    .imply('minute', wall.minute)
    .imply('second', wall.second)
    .imply('millisecond', wall.millisecond)
    .addTag(TAG_PREFIX + category);
}

/** An exact instant, as its local fields plus the offset in force (so DST overlaps stay exact). */
export function instantComponents(
  context: ParsingContext,
  instant: DateTime<true>,
  category: Category,
): ParsingComponents {
  return context
    .createParsingComponents({
      year: instant.year,
      month: instant.month,
      day: instant.day,
      hour: instant.hour,
      minute: instant.minute,
      second: instant.second,
      millisecond: instant.millisecond,
      meridiem: instant.hour < 12 ? Meridiem.AM : Meridiem.PM,
      timezoneOffset: instant.offset,
    })
    .addTag(TAG_PREFIX + category);
}

/**
 * A time of day with no date. `certain: false` for loose words ("morning", "evening") so that an
 * explicit time can refine them ("tomorrow evening at 7" is 19:00, as chrono merges it).
 */
export function timeComponents(
  context: ParsingContext,
  hour: number,
  minute: number,
  { certain }: { certain: boolean },
): ParsingComponents {
  const components = context.createParsingComponents();
  const meridiem = hour < 12 ? Meridiem.AM : Meridiem.PM;
  if (certain) components.assign('hour', hour).assign('minute', minute).assign('meridiem', meridiem);
  else components.imply('hour', hour).imply('minute', minute).imply('meridiem', meridiem);
  // chrono's merge keeps a date's implied meridiem only when it carries a casualReference tag;
  // this makes "evening at 7" 19:00 rather than 07:00.
  return components
    .imply('second', 0)
    .imply('millisecond', 0)
    .addTag(`${TAG_PREFIX}time_of_day`)
    .addTag('casualReference/time_of_day');
}
