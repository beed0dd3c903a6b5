import type { Parser } from 'chrono-node';
import { DomainError } from '../../errors.js';
import { addBusinessDays } from './business-days.js';
import { dateComponents } from './components.js';
import type { ResolveContext } from './resolve-context.js';
import { NUMBER_WORDS, wordPattern } from './vocabulary.js';

const KIND = '(?:business|working|work)\\s+days?';
// Whole numbers only: half a business day has no meaning here.
const COUNT = `(\\d+|${Object.keys(NUMBER_WORDS)
  .filter((word) => Number.isInteger(NUMBER_WORDS[word]))
  .sort((a, b) => b.length - a.length)
  .map((word) => word.replace(/\s+/g, '\\s+'))
  .join('|')})`;
const BUSINESS_DAYS = wordPattern(
  `(next|following|previous|last)\\s+${KIND}|in\\s+${COUNT}\\s+${KIND}|${COUNT}\\s+${KIND}\\s+(ago|from\\s+(?:now|today))`,
);

/** Beyond this many business days (about 40 years) the answer is no longer a business question. */
const MAX_BUSINESS_DAYS = 10_000;

function countOf(word: string): number {
  const lower = word.toLowerCase().replace(/\s+/g, ' ');
  return /^\d+$/.test(lower) ? Number(lower) : NUMBER_WORDS[lower]!;
}

/**
 * "next business day" (00:00 on it), "previous business day", "in 3 business days" and
 * "3 business days ago" / "from now" (the reference's time of day kept, as "in 3 days" keeps it).
 * Counted as the spreadsheet WORKDAY function counts, with the caller's weekend (business-days.ts).
 */
export function businessDayParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => BUSINESS_DAYS,
    extract(context, match) {
      const [, adjacent, inCount, count, direction] = match;
      if (adjacent !== undefined) {
        const n = /^(next|following)$/i.test(adjacent) ? 1 : -1;
        return dateComponents(context, addBusinessDays(ctx.today, n, ctx.weekend), 'business_day');
      }
      const n = countOf((inCount ?? count)!) * (direction?.toLowerCase() === 'ago' ? -1 : 1);
      if (Math.abs(n) > MAX_BUSINESS_DAYS) {
        throw new DomainError(
          'OUT_OF_RANGE',
          `Business-day offsets are limited to ${MAX_BUSINESS_DAYS.toLocaleString('en-US')}. Use a date instead.`,
          { business_days: n },
        );
      }
      return dateComponents(context, addBusinessDays(ctx.now, n, ctx.weekend), 'business_day');
    },
  };
}
