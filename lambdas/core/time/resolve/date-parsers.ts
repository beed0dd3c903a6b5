import { Meridiem, type Parser } from 'chrono-node';
import { dateComponents, instantComponents } from './components.js';
import { nthDayOfMonth, nthWeekdayOfMonth, yearOfUpcomingMonth } from './ordinals.js';
import { type PeriodUnit, periodEnd, periodStart } from './periods.js';
import type { ResolveContext } from './resolve-context.js';
import { alternation, MONTHS, ORDINALS, WEEKDAYS, wordPattern } from './vocabulary.js';
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

/** "next Monday", "this Friday", "last Wednesday", "Monday", "Friday next week". */
export function weekdayParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => WEEKDAY,
    extract(context, match) {
      const [, before, name, after] = match;
      if (before !== undefined && after !== undefined) return null;
      const modifier = (before ?? after)?.toLowerCase() as WeekdayModifier | undefined;
      const date = weekdayDate(ctx.today, WEEKDAYS[name!.toLowerCase()]!, modifier ?? 'bare');
      return dateComponents(context, date, 'weekday');
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
      const wall = isEnd ? periodEnd(ctx.today, unit, shift) : periodStart(ctx.today, unit, shift);
      return dateComponents(context, wall, 'period_boundary');
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
