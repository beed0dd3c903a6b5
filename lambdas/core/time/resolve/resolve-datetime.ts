import { DateTime } from 'luxon';
import { DomainError } from '../../errors.js';
import { echo } from '../../input-limits.js';
import type { TimeDeps } from '../../ports.js';
import { formatInstant, formatUtc, parseInstant } from '../instants.js';
import { effectiveZone } from '../zones.js';
import type { Category } from './components.js';
import { parseExpression } from './expression-parser.js';
import { describeInstant } from './interpretation.js';
import { passthrough } from './passthrough.js';
import { resolveContext } from './resolve-context.js';
import { unrecognizedExpression } from './unrecognized.js';

export interface ResolveDatetimeInput {
  /** A human time expression: "next Tuesday at 2pm", "tomorrow morning", "+3h", "2026-03-15". */
  expression: string;
  /** IANA zone the expression is read in; defaults to the configured zone, else UTC. */
  timezone?: string | undefined;
  /** RFC 3339 instant to resolve relative to instead of the clock's now. */
  reference_time?: string | undefined;
}

export interface ResolvedDatetime {
  resolved_utc: string;
  resolved_local: string;
  timezone: string;
  interpretation: string;
  reference_time: string;
  matched_category: Category;
}

/**
 * Lower-case, single spaces, no surrounding blanks and no leading "the"/"on the" (chrono's date
 * parsers do not expect it: "the 3rd of April"): the form every parser sees.
 */
export function normaliseExpression(expression: string): string {
  return expression
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .replace(/^(?:on )?the /, '');
}

/**
 * Resolves a human time expression to one instant, read in an IANA zone relative to a reference
 * instant (the clock's now unless `reference_time` is given). The meanings are documented in
 * docs/time-expressions.md. Throws INVALID_TIMEZONE, INVALID_DATETIME (bad `reference_time`),
 * UNRECOGNIZED_EXPRESSION or OUT_OF_RANGE ("fifth Monday of February").
 *
 * @example
 * resolveDatetime({ clock: fixedClock('2026-02-20T15:30:00Z'), defaultTimezone: 'America/New_York' },
 *   { expression: 'next Tuesday at 2pm' }).resolved_local; // '2026-02-24T14:00:00-05:00'
 */
export function resolveDatetime(deps: TimeDeps, input: ResolveDatetimeInput): ResolvedDatetime {
  const { zone } = effectiveZone(input.timezone, deps.defaultTimezone);
  const reference =
    input.reference_time !== undefined
      ? parseInstant(input.reference_time, 'reference_time')
      : (DateTime.fromMillis(deps.clock.now().getTime(), { zone }) as DateTime<true>);
  const ctx = resolveContext(reference, zone);
  const text = normaliseExpression(input.expression);
  if (text.length === 0) throw unrecognizedExpression(input.expression, []);

  const exact = passthrough(text, ctx);
  const { instant, category } =
    exact !== null ? { instant: exact, category: 'passthrough' as const } : parseExpression(text, ctx);
  const local = instant.setZone(zone);
  if (!local.isValid || local.year < 1 || local.year > 9999) {
    throw new DomainError(
      'OUT_OF_RANGE',
      `${echo(input.expression)} falls outside the years 0001–9999 that RFC 3339 can express.`,
      { expression: input.expression },
    );
  }
  return {
    resolved_utc: formatUtc(local),
    resolved_local: formatInstant(local),
    timezone: zone.name,
    interpretation: describeInstant(local),
    reference_time: formatInstant(ctx.reference),
    matched_category: category,
  };
}
