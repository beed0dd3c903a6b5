import type { Parser, ParsingComponents, ParsingContext } from 'chrono-node';
import { noteAmbiguity } from './ambiguity.js';
import { dateComponents } from './components.js';
import { periodStart } from './periods.js';
import type { ResolveContext } from './resolve-context.js';
import { wordPattern } from './vocabulary.js';
import { type WallClock, wallClock } from './wall-clock.js';

/*
 * Named periods that are ranges: quarters ("Q1 2027", "Q3", "2027-Q2", "second quarter of 2027"),
 * halves ("H2", "H1 2027", "first half of 2027") and "the week after next". Alone, each resolves
 * to its start with the whole period as a range (start inclusive, end exclusive, so the end is the
 * next period's start). With "start of"/"end of" it is one instant, as "end of quarter" is.
 * Quarters and halves are calendar ones (Q1 = January–March); fiscal years are not known.
 */

/** The tag that carries a range's exclusive end (a wall clock, ISO) through chrono's refiners. */
export const RANGE_END_TAG = 'meridian/range_end:';

const ORDINAL_WORDS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
};
const YEAR_SHIFT: Record<string, number> = { this: 0, current: 0, next: 1, last: -1, previous: -1 };

const BOUNDARY = '(?:(start|beginning|end)\\s+of\\s+(?:the\\s+)?)?';
const YEAR = '(?:\\s+(?:of\\s+|in\\s+)?(?:(\\d{4})|(this|current|next|last|previous)\\s+year))?';
const NAMED = wordPattern(
  `${BOUNDARY}(?:` +
    `([qh])([1-4])${YEAR}` +
    `|(\\d{4})[\\s-]?([qh])([1-4])` +
    `|(first|second|third|fourth|1st|2nd|3rd|4th)\\s+(quarter|half)${YEAR}` +
    ')',
);
const WEEK_AFTER_NEXT = wordPattern(`${BOUNDARY}(?:the\\s+)?week\\s+after\\s+next`);

type Span = { start: WallClock; months: number };

/** The period's components: its start (or end, for "end of"), tagged with its range when alone. */
function periodComponents(
  context: ParsingContext,
  boundary: string | undefined,
  span: Span,
): ParsingComponents {
  const next = span.start.plus(span.months > 0 ? { months: span.months } : { weeks: 1 });
  const word = boundary?.toLowerCase();
  if (word === 'end') return dateComponents(context, next.minus({ seconds: 1 }), 'period_boundary');
  const components = dateComponents(context, span.start, 'period_boundary');
  if (word === undefined) components.addTag(RANGE_END_TAG + next.toISO({ includeOffset: false }));
  return components;
}

/** "Q3", "H1 2027", "2027-Q2", "first half of next year", "end of Q1 2027". */
export function namedPeriodParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => NAMED,
    extract(context, match) {
      const [
        ,
        boundary,
        letter,
        digit,
        shortYear,
        shortShift,
        isoYear,
        isoLetter,
        isoDigit,
        ordinal,
        unitWord,
      ] = match;
      // The year pattern appears twice (after "Q1" and after "first quarter"): groups 4–5 and 11–12.
      const year = shortYear ?? match[11];
      const yearShift = shortShift ?? match[12];
      const half = (letter ?? isoLetter)?.toLowerCase() === 'h' || unitWord?.toLowerCase() === 'half';
      const index = ordinal !== undefined ? ORDINAL_WORDS[ordinal.toLowerCase()]! : Number(digit ?? isoDigit);
      if (half && index > 2) return null;
      const months = half ? 6 : 3;
      const explicitYear =
        year ??
        isoYear ??
        (yearShift !== undefined ? String(ctx.today.year + YEAR_SHIFT[yearShift.toLowerCase()]!) : undefined);
      const startIn = (y: number) => wallClock({ year: y, month: (index - 1) * months + 1, day: 1 })!;
      if (explicitYear !== undefined) {
        return periodComponents(context, boundary, { start: startIn(Number(explicitYear)), months });
      }
      // No year: the next such period not yet over, as a month name alone is; a past one is the other reading.
      const thisYear = startIn(ctx.today.year);
      const over = thisYear.plus({ months }) <= ctx.today;
      const chosen = over && ctx.alternate !== 'period_year' ? startIn(ctx.today.year + 1) : thisYear;
      const components = periodComponents(context, boundary, { start: chosen, months });
      if (over) {
        const name = `${half ? 'H' : 'Q'}${index}`;
        noteAmbiguity(ctx.notes, components, 'period_year', {
          chosen: `${name} without a year is the next ${name} not yet over (${ctx.today.year + 1})`,
          alternative: `this year's ${name} (${ctx.today.year}), already over`,
        });
      }
      return components;
    },
  };
}

/** "the week after next": the Monday–Sunday week two weeks on. */
export function weekAfterNextParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => WEEK_AFTER_NEXT,
    extract(context, match) {
      return periodComponents(context, match[1], { start: periodStart(ctx.today, 'week', 2), months: 0 });
    },
  };
}
