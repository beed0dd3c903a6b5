import { DomainError } from '../../errors.js';
import { echo } from '../../input-limits.js';
import type { TimeDeps } from '../../ports/index.js';
import { formatInstant, formatUtc, parseInstant } from '../instants.js';
import { DateTime, type Zone } from '../luxon.js';
import { effectiveZone } from '../zones.js';
import type { AmbiguityFamily } from './ambiguity.js';
import type { Category } from './components.js';
import { parseExpression } from './expression-parser.js';
import { describeInstant } from './interpretation.js';
import { passthrough } from './passthrough.js';
import { type ResolveContext, resolveContext } from './resolve-context.js';
import { unrecognizedExpression } from './unrecognized.js';

export interface ResolveDatetimeInput {
  /** A human time expression: "next Tuesday at 2pm", "tomorrow morning", "+3h", "2026-03-15". */
  expression: string;
  /** IANA zone the expression is read in; defaults to the configured zone, else UTC. */
  timezone?: string | undefined;
  /** RFC 3339 instant to resolve relative to instead of the clock's now. */
  reference_time?: string | undefined;
}

/** One reading of an expression: the instant in UTC and in the zone, in words. */
export interface Reading {
  resolved_utc: string;
  resolved_local: string;
  interpretation: string;
}

export interface ResolvedDatetime extends Reading {
  timezone: string;
  reference_time: string;
  matched_category: Category;
  /** Present (true) when the expression has another common reading, listed in `alternatives`. */
  ambiguous?: true;
  /** When ambiguous: the rule(s) behind the chosen reading. */
  rule?: string;
  /** When ambiguous: the other readings, each with the rule that produces it. */
  alternatives?: Array<Reading & { rule: string }>;
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

function readingOf(instant: DateTime<true>, zone: Zone, expression: string): Reading {
  const local = instant.setZone(zone);
  if (!local.isValid || local.year < 1 || local.year > 9999) {
    throw new DomainError(
      'OUT_OF_RANGE',
      `"${expression}" falls outside the years 0001–9999 that RFC 3339 can express.`,
      { expression },
    );
  }
  return {
    resolved_utc: formatUtc(local),
    resolved_local: formatInstant(local),
    interpretation: describeInstant(local),
  };
}

/**
 * The other readings of an expression: re-read once per family it is open to, keeping readings
 * that land on a different instant. Empty when every reading agrees ("this Friday" on a Monday).
 */
function alternativeReadings(
  text: string,
  ctx: ResolveContext,
  chosen: DateTime<true>,
  families: readonly AmbiguityFamily[],
): { rules: string[]; alternatives: Array<Reading & { rule: string }> } {
  const rules: string[] = [];
  const alternatives: Array<Reading & { rule: string }> = [];
  const seen = new Set([chosen.toMillis()]);
  for (const family of families) {
    const other = parseExpression(text, resolveContext(ctx.reference, ctx.zone, family)).instant;
    if (seen.has(other.toMillis())) continue;
    seen.add(other.toMillis());
    const notes = ctx.notes.get(family)!;
    rules.push(notes.chosen);
    alternatives.push({ ...readingOf(other, ctx.zone, text), rule: notes.alternative });
  }
  return { rules, alternatives };
}

/**
 * Resolves a human time expression to one instant, read in an IANA zone relative to a reference
 * instant (the clock's now unless `reference_time` is given). The meanings are documented in
 * docs/time-expressions.md. An expression with more than one common reading ("last Friday",
 * "at 5", "03/04/2026", "next week", "end of week") also gets `ambiguous: true` and its
 * `alternatives`. Throws INVALID_TIMEZONE, INVALID_DATETIME (bad `reference_time`),
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
  const { instant, category, families } =
    exact !== null
      ? { instant: exact, category: 'passthrough' as const, families: [] }
      : parseExpression(text, ctx);
  const local = instant.setZone(zone);
  if (!local.isValid || local.year < 1 || local.year > 9999) {
    throw new DomainError(
      'OUT_OF_RANGE',
      `${echo(input.expression)} falls outside the years 0001–9999 that RFC 3339 can express.`,
      { expression: input.expression },
    );
  }
  const { resolved_utc, resolved_local, interpretation } = readingOf(instant, zone, input.expression);
  const { rules, alternatives } = alternativeReadings(text, ctx, instant, families);
  return {
    resolved_utc,
    resolved_local,
    timezone: zone.name,
    interpretation,
    reference_time: formatInstant(ctx.reference),
    matched_category: category,
    ...(alternatives.length > 0 ? { ambiguous: true as const, rule: rules.join('; '), alternatives } : {}),
  };
}
