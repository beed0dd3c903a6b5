import { DomainError } from '../../errors.js';
import { echo } from '../../input-limits.js';
import type { TimeDeps } from '../../ports/index.js';
import { formatInstant, formatUtc, parseInstant } from '../instants.js';
import { DateTime, type Zone } from '../luxon.js';
import { effectiveZone } from '../zones.js';
import type { AmbiguityFamily } from './ambiguity.js';
import { type WeekdayKey, weekendOf } from './business-days.js';
import type { Category } from './components.js';
import { type ParsedExpression, parseExpression } from './expression-parser.js';
import { type NamedZone, namedZone, utcOffsetText, type ZoneMeaning } from './expression-zone.js';
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
  /** Days that are not business days, for "next business day"; else the locale's, else Saturday–Sunday. */
  weekend?: readonly WeekdayKey[] | undefined;
  /** BCP 47 locale whose weekend business days skip ("he-IL": Friday–Saturday). */
  locale?: string | undefined;
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
  /** The zone named in the expression ("3pm PST": "UTC-8"), whose clock it was read on. */
  expression_timezone?: string;
  /** For a named period alone ("Q1 2027", "H2", "the week after next"): start and exclusive end. */
  range?: { start: string; end: string; end_utc: string };
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
  answerZone: Zone,
  seen: Set<number>,
  families: readonly AmbiguityFamily[],
): { rules: string[]; alternatives: Array<Reading & { rule: string }> } {
  const rules: string[] = [];
  const alternatives: Array<Reading & { rule: string }> = [];
  for (const family of families) {
    const other = parseExpression(
      text,
      resolveContext(ctx.reference, ctx.zone, family, ctx.weekend, ctx.calendarZone),
    ).instant;
    if (seen.has(other.toMillis())) continue;
    seen.add(other.toMillis());
    const notes = ctx.notes.get(family)!;
    rules.push(notes.chosen);
    alternatives.push({ ...readingOf(other, answerZone, text), rule: notes.alternative });
  }
  return { rules, alternatives };
}

/**
 * The readings a named zone adds: the same words on each other zone the abbreviation names
 * ("CST": China, Cuba), and, when an abbreviation's own zone shows another offset that day
 * ("PST" in July, when Los Angeles shows PDT), the words on that zone's clocks.
 */
function zoneReadings(
  text: string,
  ctx: ResolveContext,
  named: NamedZone,
  chosen: DateTime<true>,
  answerZone: Zone,
  seen: Set<number>,
): { rules: string[]; alternatives: Array<Reading & { rule: string }> } {
  const [first, ...others] = named.meanings as [ZoneMeaning, ...ZoneMeaning[]];
  const readIn = (zone: Zone, calendarZone: Zone = ctx.calendarZone) =>
    parseExpression(text, resolveContext(ctx.reference, zone, undefined, ctx.weekend, calendarZone)).instant;
  const alternatives: Array<Reading & { rule: string }> = [];
  const add = (instant: DateTime<true>, rule: string) => {
    if (seen.has(instant.toMillis())) return;
    seen.add(instant.toMillis());
    alternatives.push({ ...readingOf(instant, answerZone, text), rule });
  };
  const clocks = first.clocks;
  if (clocks !== undefined && clocks.offset(chosen.toMillis()) !== first.zone.offset(chosen.toMillis())) {
    const shown = utcOffsetText(clocks.offset(chosen.toMillis()));
    add(readIn(clocks), `"${named.words}" as the clocks of ${clocks.name} show it that day (${shown})`);
  }
  for (const meaning of others) add(readIn(meaning.zone), `"${named.words}" as ${meaning.label}`);
  const rules = alternatives.length > 0 ? [`"${named.words}" as ${first.label}`] : [];
  // "tomorrow" in Tokyo may already be the day after the caller's tomorrow.
  const before = alternatives.length;
  add(
    readIn(first.zone, first.zone),
    `days counted on the calendar of ${first.label}, not ${ctx.calendarZone.name}`,
  );
  if (alternatives.length > before) rules.push(`days counted on the calendar of ${ctx.calendarZone.name}`);
  return { rules, alternatives };
}

/** The zone a range or reading is described in, and its words: the caller's, or the one named. */
function describeIn(instant: DateTime<true>, named: NamedZone | null, answerZone: Zone): string {
  const local = describeInstant(instant.setZone(answerZone));
  if (named === null || named.meanings[0]!.zone.equals(answerZone)) return local;
  return `${describeInstant(instant.setZone(named.meanings[0]!.zone))} ${named.meanings[0]!.label}, which is ${local} in ${answerZone.name}`;
}

/**
 * Resolves a human time expression to one instant, read in an IANA zone relative to a reference
 * instant (the clock's now unless `reference_time` is given). The meanings are documented in
 * docs/time-expressions.md. An expression with more than one common reading ("last Friday",
 * "at 5", "03/04/2026", "next week", "end of week", "3pm CST") also gets `ambiguous: true` and its
 * `alternatives`. A zone at the end ("3pm PST", "15:00 Tokyo time") is the clock the words are
 * read on; the answer stays in `timezone`. A named period alone ("Q1 2027") also gets its `range`.
 * Throws INVALID_TIMEZONE, INVALID_DATETIME (bad `reference_time`), INVALID_INPUT (bad weekend
 * or locale), UNRECOGNIZED_EXPRESSION or OUT_OF_RANGE ("fifth Monday of February").
 *
 * @example
 * resolveDatetime({ clock: fixedClock('2026-02-20T15:30:00Z'), defaultTimezone: 'America/New_York' },
 *   { expression: 'next Tuesday at 2pm' }).resolved_local; // '2026-02-24T14:00:00-05:00'
 */
export function resolveDatetime(deps: TimeDeps, input: ResolveDatetimeInput): ResolvedDatetime {
  const { zone: answerZone } = effectiveZone(input.timezone, deps.defaultTimezone);
  const reference =
    input.reference_time !== undefined
      ? parseInstant(input.reference_time, 'reference_time')
      : (DateTime.fromMillis(deps.clock.now().getTime(), { zone: answerZone }) as DateTime<true>);
  const normalised = normaliseExpression(input.expression);
  if (normalised.length === 0) throw unrecognizedExpression(input.expression, []);
  const named = namedZone(normalised);
  const text = named?.rest ?? normalised;
  const readZone = named?.meanings[0]?.zone ?? answerZone;
  const ctx = resolveContext(
    reference,
    readZone,
    undefined,
    weekendOf(input.weekend, input.locale),
    answerZone,
  );

  const exact = passthrough(text, ctx);
  const parsed: ParsedExpression =
    exact !== null ? { instant: exact, category: 'passthrough', families: [] } : parseExpression(text, ctx);
  const { instant, category, families, rangeEnd } = parsed;
  const local = instant.setZone(answerZone);
  if (!local.isValid || local.year < 1 || local.year > 9999) {
    throw new DomainError(
      'OUT_OF_RANGE',
      `${echo(input.expression)} falls outside the years 0001–9999 that RFC 3339 can express.`,
      { expression: input.expression },
    );
  }
  const { resolved_utc, resolved_local } = readingOf(instant, answerZone, input.expression);
  const seen = new Set([instant.toMillis()]);
  const byZone =
    named !== null && exact === null
      ? zoneReadings(text, ctx, named, instant, answerZone, seen)
      : { rules: [], alternatives: [] };
  const byFamily = alternativeReadings(text, ctx, answerZone, seen, families);
  const rules = [...byZone.rules, ...byFamily.rules];
  const alternatives = [...byZone.alternatives, ...byFamily.alternatives];
  return {
    resolved_utc,
    resolved_local,
    timezone: answerZone.name,
    interpretation: describeIn(instant, named, answerZone),
    reference_time: formatInstant(reference.setZone(answerZone) as DateTime<true>),
    matched_category: category,
    ...(named !== null ? { expression_timezone: readZone.name } : {}),
    ...(rangeEnd !== undefined
      ? {
          range: {
            start: resolved_local,
            end: formatInstant(rangeEnd.setZone(answerZone) as DateTime<true>),
            end_utc: formatUtc(rangeEnd),
          },
        }
      : {}),
    ...(alternatives.length > 0 ? { ambiguous: true as const, rule: rules.join('; '), alternatives } : {}),
  };
}
