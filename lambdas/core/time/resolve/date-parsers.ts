import { Meridiem, type Parser, type ParsingContext } from 'chrono-node';
import { noteAmbiguity } from './ambiguity.js';
import { dateComponents, instantComponents } from './components.js';
import { nthDayOfMonth, nthWeekdayOfMonth, yearOfUpcomingMonth } from './ordinals.js';
import { type PeriodUnit, periodEnd, periodStart } from './periods.js';
import type { ResolveContext } from './resolve-context.js';
import { alternation, MONTHS, ORDINALS, WEEKDAYS, wordPattern } from './vocabulary.js';
import { wallClock } from './wall-clock.js';
import { type WeekdayModifier, weekdayDate } from './weekdays.js';

/*
 * chrono parsers for the date-shaped categories. They replace chrono's own casual-date, weekday
 * and relative-period parsers, whose meanings differ from the ones Meridian documents (chrono's
 * "next Tuesday" on a Monday is tomorrow; it has no quarters, period ends or ordinal weekdays).
 * Each parser computes its date with luxon on the zone's wall clock (never a host-local Date) and
 * hands chrono a date-only result, so chrono's refiners can still attach a time ("… at 2pm").
 */

const ANCHOR = wordPattern(
  '(right\\s+now|now|today|tonight|(?:the\\s+)?day\\s+after\\s+tomorrow|(?:the\\s+)?day\\s+before\\s+yesterday|tomorrow|tmrw|yesterday)',
);

const ANCHOR_DAYS: Record<string, number> = { today: 0, tonight: 0, tomorrow: 1, tmrw: 1, yesterday: -1 };

/** "now", "today", "tonight" (20:00), "tomorrow", "yesterday", "the day after tomorrow", … */
export function anchorParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => ANCHOR,
    extract(context, match) {
      const word = match[1]!.toLowerCase().replace(/\s+/g, ' ');
      if (word.endsWith('now')) return instantComponents(context, ctx.reference, 'anchored');
      const days = word.includes('after') ? 2 : word.includes('before') ? -2 : ANCHOR_DAYS[word]!;
      if (word !== 'tonight') return dateComponents(context, ctx.today.plus({ days }), 'anchored');
      // Like chrono's "tonight": an implied PM hour, so "tonight at 8" reads as 20:00.
      return dateComponents(context, ctx.today.set({ hour: 20 }), 'anchored')
        .imply('meridiem', Meridiem.PM)
        .addTag('casualReference/tonight');
    },
  };
}

const MODIFIER = '(next|this|last)';
const WEEKDAY = wordPattern(
  `(?:on\\s+)?(?:${MODIFIER}\\s+)?(${alternation(WEEKDAYS)})(?:\\s+${MODIFIER}\\s+week)?`,
);

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Meridian's reading of "next/this/last X" and the other common one, each with its rule. */
const WEEKDAY_READINGS: Record<
  string,
  { chosen: WeekdayModifier; alternative: WeekdayModifier; rules: (day: string) => [string, string] }
> = {
  next: {
    chosen: 'next',
    alternative: 'bare',
    rules: (day) => [`${day} of next week (weeks run Monday–Sunday)`, `the first ${day} after today`],
  },
  this: {
    chosen: 'this',
    alternative: 'coming',
    rules: (day) => [`${day} of this week, even if past`, `the first ${day} on or after today`],
  },
  last: {
    chosen: 'previous',
    alternative: 'last',
    rules: (day) => [`the most recent ${day} before today`, `${day} of last week (weeks run Monday–Sunday)`],
  },
};

/**
 * "next Monday", "this Friday", "last Wednesday" (each open to a second reading, see
 * WEEKDAY_READINGS), "Monday", and the unambiguous "Friday next week", "Monday last week".
 */
export function weekdayParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => WEEKDAY,
    extract(context, match) {
      const [, before, name, after] = match;
      if (before !== undefined && after !== undefined) return null;
      const weekday = WEEKDAYS[name!.toLowerCase()]!;
      if (before === undefined) {
        const modifier = (after?.toLowerCase() ?? 'bare') as WeekdayModifier;
        return dateComponents(context, weekdayDate(ctx.today, weekday, modifier), 'weekday');
      }
      const reading = WEEKDAY_READINGS[before.toLowerCase()]!;
      const modifier = ctx.alternate === 'weekday' ? reading.alternative : reading.chosen;
      const components = dateComponents(context, weekdayDate(ctx.today, weekday, modifier), 'weekday');
      const [chosen, alternative] = reading.rules(DAY_NAMES[weekday - 1]!);
      noteAmbiguity(ctx.notes, components, 'weekday', { chosen, alternative });
      return components;
    },
  };
}

const SHIFTS: Record<string, number> = { this: 0, current: 0, next: 1, last: -1, previous: -1 };
const PERIOD = wordPattern(
  '(?:(?:the\\s+)?(start|beginning|end)\\s+of\\s+(?:the\\s+)?)?' +
    '(?:(?:(this|current|next|last|previous)\\s+)?(day|week|month|quarter|year)|(today|tomorrow|yesterday))',
);

/**
 * "start of week", "end of month", "beginning of day", "start of next quarter", "end of year",
 * and a period on its own ("next quarter", "last month") meaning its start.
 */
export function periodParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => PERIOD,
    extract(context, match) {
      const [, boundary, modifier, unitWord, dayWord] = match;
      // "week" or "month" alone says nothing, "next day" is "tomorrow", "end of tomorrow" needs "end of".
      if (
        boundary === undefined &&
        (modifier === undefined || unitWord === undefined || unitWord === 'day')
      ) {
        return null;
      }
      const unit = (unitWord?.toLowerCase() ?? 'day') as PeriodUnit;
      const shift =
        dayWord !== undefined
          ? ANCHOR_DAYS[dayWord.toLowerCase()]!
          : SHIFTS[modifier?.toLowerCase() ?? 'this']!;
      const isEnd = boundary?.toLowerCase() === 'end';
      if (isEnd && unit === 'week') return endOfWeek(context, ctx, shift);
      if (boundary === undefined && shift === 1 && (unit === 'week' || unit === 'month'))
        return nextPeriod(context, ctx, unit);
      const wall = isEnd ? periodEnd(ctx.today, unit, shift) : periodStart(ctx.today, unit, shift);
      return dateComponents(context, wall, 'period_boundary');
    },
  };
}

/** "next week"/"next month": the period's start, or (the other reading) the same time 7 days / a month on. */
function nextPeriod(context: ParsingContext, ctx: ResolveContext, unit: 'week' | 'month') {
  const wall =
    ctx.alternate === 'next_period' ? ctx.now.plus({ [`${unit}s`]: 1 }) : periodStart(ctx.today, unit, 1);
  const components = dateComponents(context, wall, 'period_boundary');
  noteAmbiguity(ctx.notes, components, 'next_period', {
    chosen:
      unit === 'week' ? 'the start of next week (Monday 00:00)' : 'the start of next month (the 1st, 00:00)',
    alternative:
      unit === 'week' ? '7 days from now, at the same time' : 'one month from now, at the same time',
  });
  return components;
}

/** "end of week": Sunday 23:59:59, or (the other reading) the end of the working week, Friday 17:00. */
function endOfWeek(context: ParsingContext, ctx: ResolveContext, shift: number) {
  const wall =
    ctx.alternate === 'end_of_week'
      ? periodStart(ctx.today, 'week', shift).plus({ days: 4, hours: 17 })
      : periodEnd(ctx.today, 'week', shift);
  const components = dateComponents(context, wall, 'period_boundary');
  noteAmbiguity(ctx.notes, components, 'end_of_week', {
    chosen: 'the end of the calendar week: Sunday 23:59:59',
    alternative: 'the end of the working week: Friday 17:00',
  });
  return components;
}

const NUMERIC_DATE = wordPattern('(\\d{1,2})/(\\d{1,2})/(\\d{4})');

/**
 * "03/04/2026": month first (as in the US, and as chrono-node and dateutil read it), or day first
 * (most of the world). Only a date valid both ways, with day ≠ month, is open to both readings;
 * "13/04/2026" can only be 13 April.
 */
export function numericDateParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => NUMERIC_DATE,
    extract(context, match) {
      const [first, second, year] = match.slice(1, 4).map(Number) as [number, number, number];
      const monthFirst = wallClock({ year, month: first, day: second });
      const dayFirst = wallClock({ year, month: second, day: first });
      if (monthFirst === null || dayFirst === null || first === second) {
        const only = monthFirst ?? dayFirst;
        return only === null ? null : dateComponents(context, only, 'calendar_date');
      }
      const components = dateComponents(
        context,
        ctx.alternate === 'numeric_date' ? dayFirst : monthFirst,
        'calendar_date',
      );
      noteAmbiguity(ctx.notes, components, 'numeric_date', {
        chosen: 'month first, MM/DD/YYYY (as in the US)',
        alternative: 'day first, DD/MM/YYYY',
      });
      return components;
    },
  };
}

const ORDINAL = wordPattern(
  `(?:the\\s+)?(${alternation(ORDINALS)})\\s+(${alternation(WEEKDAYS)}|day)\\s+(?:of|in)\\s+(?:the\\s+)?` +
    `(?:(this|current|next|last|previous)\\s+month|(${alternation(MONTHS)})(?:,?\\s+(\\d{4}))?|(\\d{4})-(\\d{2}))`,
);

/** "first Monday of March", "third Friday of next month", "last Friday of this month", "2nd Tuesday of 2027-01". */
export function ordinalParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => ORDINAL,
    extract(context, match) {
      const [, ordinal, dayWord, relative, monthName, monthYear, isoYear, isoMonth] = match;
      let year: number;
      let month: number;
      if (relative !== undefined) {
        const first = ctx.today.startOf('month').plus({ months: SHIFTS[relative.toLowerCase()]! });
        ({ year, month } = first);
      } else if (monthName !== undefined) {
        month = MONTHS[monthName.toLowerCase()]!;
        year = monthYear !== undefined ? Number(monthYear) : yearOfUpcomingMonth(ctx.today, month);
      } else {
        year = Number(isoYear);
        month = Number(isoMonth);
        if (month < 1 || month > 12) return null;
      }
      const n = ORDINALS[ordinal!.toLowerCase()]!;
      const day = dayWord!.toLowerCase();
      const date =
        day === 'day' ? nthDayOfMonth(year, month, n) : nthWeekdayOfMonth(year, month, WEEKDAYS[day]!, n);
      return dateComponents(context, date, 'ordinal');
    },
  };
}
