import { DomainError } from '../../errors.js';
import { echo } from '../../input-limits.js';

/** Every supported form with examples; the error message shows the first of each so a caller can rephrase. */
export const SUPPORTED_FORMS: ReadonlyArray<{ category: string; examples: readonly string[] }> = [
  { category: 'anchored', examples: ['now', 'today', 'tomorrow', 'yesterday', 'tonight'] },
  {
    category: 'weekday',
    examples: ['next Monday', 'this Friday', 'last Wednesday', 'Monday', 'Friday next week'],
  },
  {
    category: 'time of day',
    examples: ['morning', 'noon', 'afternoon', 'evening', 'midnight', 'eob', 'eod'],
  },
  { category: 'explicit time', examples: ['2pm', '2:30pm', '14:00', 'at 9'] },
  { category: 'offset', examples: ['+2h', '-30m', '+1d2h', 'in 2 hours', 'in 3 days', '3 days ago'] },
  { category: 'combined', examples: ['next Tuesday at 2pm', 'tomorrow morning', 'in 2 days at noon'] },
  {
    category: 'period boundary',
    examples: ['start of week', 'end of month', 'start of next quarter', 'next quarter', 'end of year'],
  },
  {
    category: 'ordinal',
    examples: ['first Monday of March', 'third Friday of next month', 'last Friday of this month'],
  },
  {
    category: 'with a zone (abbreviation, IANA city or name, UTC offset)',
    examples: ['3pm PST', '15:00 Tokyo time', 'noon in London', '9am UTC+2'],
  },
  { category: 'business day', examples: ['next business day', 'in 3 business days', '3 business days ago'] },
  { category: 'named period (with its range)', examples: ['Q1 2027', 'H2', 'the week after next'] },
  { category: 'calendar date', examples: ['March 15', '15 March 2027', 'March 15 at 3pm', '03/15/2026'] },
  { category: 'passthrough', examples: ['2026-03-15T14:00:00Z', '2026-03-15', '2026-03-15T09:00'] },
];

/** One example per form: enough to rephrase from, short enough to read in an error. */
const EXAMPLES_TEXT = SUPPORTED_FORMS.map((f) => `"${f.examples[0]}"`).join(', ');

/** A day and month in digits with no year ("03/04", "3.4"): which is the day, only a year settles. */
const NUMERIC_DAY_MONTH = /(?<![\d/.-])\d{1,2}([/.])\d{1,2}(?![\d/]|\.\d)/;
/** A numeric date with a two-digit year ("3/15/26"): the century is not guessed. */
const TWO_DIGIT_YEAR = /(?<![\d/.-])\d{1,2}([/.])\d{1,2}\1\d{2}(?![\d/.])/;

/**
 * UNRECOGNIZED_EXPRESSION for text that is not (entirely) one supported form. `understood` lists
 * the fragments that did parse, so the caller sees which part to rephrase; a numeric date
 * without a year is told to add one (then both day/month readings are answered).
 *
 * @example
 * throw unrecognizedExpression('tomorrow-ish', ['"tomorrow"']);
 */
export function unrecognizedExpression(expression: string, understood: readonly string[]): DomainError {
  const partial =
    understood.length > 0 ? ` Only ${understood.join(' and ')} could be read, not the whole text.` : '';
  const [dayMonth, separator] = NUMERIC_DAY_MONTH.exec(expression) ?? [];
  const shortYear = TWO_DIGIT_YEAR.exec(expression)?.[0];
  const fix = shortYear
    ? `Write the year of "${shortYear}" with four digits, or name the month ("15 March 2026").`
    : dayMonth
      ? `"${dayMonth}" has no year: add it ("${dayMonth}${separator}YYYY", answered with both day/month readings) or name the month ("4 March").`
      : `Rephrase it as one of the supported forms, e.g. ${EXAMPLES_TEXT}.`;
  return new DomainError(
    'UNRECOGNIZED_EXPRESSION',
    `Cannot read ${echo(expression)} as a date or time.${partial} ${fix}`,
    { expression, understood },
  );
}
