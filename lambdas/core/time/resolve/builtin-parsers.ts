import {
  en,
  type Parser,
  ParsingComponents,
  type ParsingContext,
  ParsingResult,
  type Refiner,
} from 'chrono-node';
import { type Category, TAG_PREFIX } from './components.js';

/*
 * The parts of chrono-node we use as they are: its explicit-time parser ("2pm", "2:30pm",
 * "14:00", "at 9", "9 o'clock") and its calendar-date parsers ("March 15", "15 March 2027",
 * "2026-03-15"), plus the refiners that drop overlapping matches and merge a date with a time.
 * chrono exports only whole configurations, so the instances are picked from them by class name;
 * the lookup fails loudly at load time if a chrono upgrade renames one.
 */

function pick<T extends object>(items: readonly T[], className: string): T {
  const found = items.find((item) => item.constructor.name === className);
  if (found === undefined)
    throw new Error(`chrono-node no longer provides ${className}; see builtin-parsers.ts`);
  return found;
}

const TIME_EXPRESSION = pick(en.casual.parsers, 'ENTimeExpressionParser');
const CALENDAR_DATES = [
  pick(en.casual.parsers, 'ENMonthNameMiddleEndianParser'),
  pick(en.casual.parsers, 'ENMonthNameLittleEndianParser'),
  // The strict instance never swaps day and month ("2026-13-01" is refused, not read as Jan 13).
  pick(en.strict.parsers, 'ENYearMonthDayParser'),
];

/** Drop overlapping matches (the longer wins), then merge adjacent date-only and time-only results. */
export const REFINERS: readonly Refiner[] = [
  pick(en.casual.refiners, 'OverlapRemovalRefiner'),
  pick(en.casual.refiners, 'ENMergeDateTimeRefiner'),
];

/**
 * Wraps a chrono parser so its results carry our category tag and, for dates, 00:00 as the
 * implied time in place of chrono's (which chrono derives with host-local Date methods). A missing
 * year is left uncertain: the resolver picks it (the next such day on or after today).
 */
function tagged(parser: Parser, category: Category): Parser {
  const normalise = (components: ParsingComponents): ParsingComponents => {
    components.addTag(TAG_PREFIX + category);
    if (components.isCertain('day') && !components.isCertain('hour')) {
      components.imply('hour', 0).imply('minute', 0).imply('second', 0).imply('millisecond', 0);
    }
    return components;
  };
  return {
    pattern: (context) => parser.pattern(context),
    extract(context: ParsingContext, match: RegExpMatchArray) {
      const result = parser.extract(context, match);
      if (result === null) return null;
      if (result instanceof ParsingResult) {
        normalise(result.start);
        if (result.end) normalise(result.end);
        return result;
      }
      return normalise(
        result instanceof ParsingComponents ? result : context.createParsingComponents(result),
      );
    },
  };
}

/** chrono's own parsers, wrapped once: they hold no per-call state. */
export const BUILTIN_PARSERS: readonly Parser[] = [
  tagged(TIME_EXPRESSION, 'explicit_time'),
  ...CALENDAR_DATES.map((parser) => tagged(parser, 'calendar_date')),
];
