import { Chrono, type ParsedComponents } from 'chrono-node';
import { DomainError } from '../../errors.js';
import { DateTime } from '../luxon.js';
import { type AmbiguityFamily, familiesOf } from './ambiguity.js';
import { BUILTIN_PARSERS, REFINERS } from './builtin-parsers.js';
import { businessDayParser } from './business-day-parser.js';
import { type Category, MIDNIGHT_TAG, TAG_PREFIX } from './components.js';
import {
  anchorParser,
  numericDateParser,
  ordinalParser,
  periodParser,
  weekdayParser,
} from './date-parsers.js';
import { namedPeriodParser, RANGE_END_TAG, weekAfterNextParser } from './named-period-parser.js';
import { compactOffsetParser, wordedOffsetParser } from './offset-parsers.js';
import type { ResolveContext } from './resolve-context.js';
import { partOfDayParser } from './time-parsers.js';
import { unrecognizedExpression } from './unrecognized.js';
import { wallClock, wallClockInZone } from './wall-clock.js';

/** An expression read to one instant, with the category that matched. */
export interface ParsedExpression {
  instant: DateTime<true>;
  category: Category;
  /** The families of ambiguity the text is open to (its other readings, see ambiguity.ts). */
  families: AmbiguityFamily[];
  /** For a named period alone ("Q1 2027", "the week after next"): its exclusive end. */
  rangeEnd?: DateTime<true>;
}

/**
 * A chrono instance for one resolution. Our parsers come first: when two matches cover the same
 * text, chrono keeps the earlier one. Built per call because our parsers close over the context;
 * chrono's own parser instances are shared and cache their patterns.
 */
function chronoFor(ctx: ResolveContext): Chrono {
  return new Chrono({
    parsers: [
      businessDayParser(ctx),
      namedPeriodParser(ctx),
      weekAfterNextParser(ctx),
      compactOffsetParser(ctx),
      wordedOffsetParser(ctx),
      ordinalParser(ctx),
      numericDateParser(ctx),
      weekdayParser(ctx),
      periodParser(ctx),
      anchorParser(ctx),
      partOfDayParser(),
      ...BUILTIN_PARSERS,
    ],
    refiners: [...REFINERS],
  });
}

/**
 * Reads a normalised (trimmed, lower-case, single-spaced) expression. The whole text must be one
 * match: chrono happily finds "tomorrow" inside "tomorrow-ish please", we refuse anything left over.
 *
 * @example
 * parseExpression('next tuesday at 2pm', ctx).instant.toISO(); // '2026-02-24T14:00:00.000-05:00'
 */
export function parseExpression(text: string, ctx: ResolveContext): ParsedExpression {
  // chrono only reads the reference for values we overwrite; give it the true instant and offset.
  const results = chronoFor(ctx).parse(text, {
    instant: ctx.reference.toJSDate(),
    timezone: ctx.reference.offset,
  });
  const [only] = results;
  if (results.length === 1 && only !== undefined && only.index === 0 && only.text.length === text.length) {
    if (only.end) {
      throw new DomainError(
        'UNRECOGNIZED_EXPRESSION',
        `"${text}" is a range, and resolve_datetime returns one instant: resolve its start and its end separately.`,
        { expression: text },
      );
    }
    const families = familiesOf(only.start.tags());
    const bareHour = isBareHour(only.start, text);
    if (bareHour) {
      families.push('bare_hour');
      ctx.notes.set('bare_hour', {
        chosen: 'a time without am/pm on the 24-hour clock (at 5 = 05:00)',
        alternative: 'the same time after noon (at 5 = 17:00)',
      });
    }
    const pm = bareHour && ctx.alternate === 'bare_hour';
    const instant = toInstant(only.start, ctx, pm);
    const rangeEnd = rangeEndOf(only.start.tags(), ctx);
    return { instant, category: categoryOf(only.start.tags()), families, ...(rangeEnd ? { rangeEnd } : {}) };
  }
  throw unrecognizedExpression(
    text,
    results.map((result) => `"${result.text}"`),
  );
}

/**
 * A time of day said without am/pm that could be either ("at 5", "7:30", "9 o'clock"): hours 1–11
 * with no meridiem from the text or a word ("tonight at 8" is already 20:00). A zero-padded hour
 * ("07:45") is the 24-hour clock.
 */
function isBareHour(components: ParsedComponents, text: string): boolean {
  const hour = components.get('hour') ?? 0;
  return (
    components.tags().has(`${TAG_PREFIX}explicit_time`) &&
    components.isCertain('hour') &&
    !components.isCertain('meridiem') &&
    hour >= 1 &&
    hour <= 11 &&
    !/(?:^|\D)0\d:\d\d/.test(text)
  );
}

/** The exclusive end a named-period parser tagged, placed in the zone; undefined for other results. */
function rangeEndOf(tags: Set<string>, ctx: ResolveContext): DateTime<true> | undefined {
  for (const tag of tags) {
    if (!tag.startsWith(RANGE_END_TAG)) continue;
    const wall = DateTime.fromISO(tag.slice(RANGE_END_TAG.length), { zone: 'utc' }) as DateTime<true>;
    return wallClockInZone(wall, ctx.zone);
  }
  return undefined;
}

/** One category, or "combined" when a date and a time from different categories were merged. */
function categoryOf(tags: Set<string>): Category {
  const categories = new Set<string>();
  for (const tag of tags)
    if (tag.startsWith(TAG_PREFIX) && tag !== MIDNIGHT_TAG && !tag.startsWith(RANGE_END_TAG))
      categories.add(tag.slice(TAG_PREFIX.length));
  const [first] = categories;
  return categories.size === 1 ? (first as Category) : 'combined';
}

/**
 * Turns chrono's components into an instant in the zone. An assigned UTC offset marks an exact
 * instant; anything else is a wall-clock reading (a date, else today; a time, else its implied one).
 */
function toInstant(components: ParsedComponents, ctx: ResolveContext, pm = false): DateTime<true> {
  const get = (name: Parameters<ParsedComponents['get']>[0]) => components.get(name) ?? 0;
  if (components.isCertain('timezoneOffset')) {
    const utc = Date.UTC(
      get('year'),
      get('month') - 1,
      get('day'),
      get('hour'),
      get('minute'),
      get('second'),
      get('millisecond'),
    );
    return DateTime.fromMillis(utc - get('timezoneOffset') * 60_000, { zone: ctx.zone }) as DateTime<true>;
  }
  const date = components.isCertain('day')
    ? {
        year: components.isCertain('year') ? get('year') : upcomingYear(get('month'), get('day'), ctx),
        month: get('month'),
        day: get('day'),
      }
    : { year: ctx.today.year, month: ctx.today.month, day: ctx.today.day };
  const day = wallClock(date);
  if (day === null) {
    const iso = `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
    throw new DomainError(
      'OUT_OF_RANGE',
      `${iso} does not exist: that month is shorter. Check the day of the month.`,
      {
        ...date,
      },
    );
  }
  // Hour 24 (from "24:00") rolls over to the next day, as ISO 8601's end-of-day midnight does.
  const wall = day.plus({
    hours: get('hour') + (pm ? 12 : 0),
    minutes: get('minute'),
    seconds: get('second'),
    milliseconds: get('millisecond'),
  });
  // "midnight" is the midnight that ends the day it names: "today at midnight" is tomorrow 00:00.
  const shifted = components.tags().has(MIDNIGHT_TAG) ? wall.plus({ days: 1 }) : wall;
  return wallClockInZone(shifted, ctx.zone);
}

/** A month and day without a year mean the next such day on or after today ("March 15" said on March 16 is next year's). */
function upcomingYear(month: number, day: number, ctx: ResolveContext): number {
  const { today } = ctx;
  return today.year + (month < today.month || (month === today.month && day < today.day) ? 1 : 0);
}
