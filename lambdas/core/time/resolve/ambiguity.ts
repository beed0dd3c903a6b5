/**
 * Expressions with more than one common reading. The resolver answers with Meridian's reading
 * (docs/time-expressions.md) and reports the others, so an agent can confirm with the person.
 * Each family is re-read with `ResolveContext.alternate` set to it; a parser (or the resolver, for
 * a bare hour) that sees its family there gives the other reading.
 */
export const AMBIGUITY_FAMILIES = [
  /** "next/this/last Friday": by Monday–Sunday weeks, or counted from today. */
  'weekday',
  /** "at 5", "7:30": 24-hour clock, or the afternoon/evening hour. */
  'bare_hour',
  /** "03/04/2026": month first (US), or day first. */
  'numeric_date',
  /** "next week", "next month": the period's start, or the same time 7 days / 1 month on. */
  'next_period',
  /** "end of week": Sunday 23:59:59, or the end of the working week (Friday 17:00). */
  'end_of_week',
  /** "Q3", "H1" without a year, once this year's is over: next year's, or this year's. */
  'period_year',
] as const;
export type AmbiguityFamily = (typeof AMBIGUITY_FAMILIES)[number];

/** The two rules of one family as they apply to the expression at hand, in words. */
export interface ReadingRules {
  chosen: string;
  alternative: string;
}

/** Tag on chrono components whose reading is open to a family (kept through chrono's merges). */
export const AMBIGUITY_TAG_PREFIX = 'ambiguous/';

/**
 * Records that text can be read one of two ways: tags the components with the family and keeps
 * the two rules in words for the answer.
 *
 * @example
 * noteAmbiguity(ctx.notes, components, 'numeric_date', { chosen: 'month first', alternative: 'day first' });
 */
export function noteAmbiguity(
  notes: Map<AmbiguityFamily, ReadingRules>,
  tags: { addTag(tag: string): unknown },
  family: AmbiguityFamily,
  rules: ReadingRules,
): void {
  notes.set(family, rules);
  tags.addTag(AMBIGUITY_TAG_PREFIX + family);
}

/** The families tagged on a result, in declaration order. */
export function familiesOf(tags: ReadonlySet<string>): AmbiguityFamily[] {
  return AMBIGUITY_FAMILIES.filter((family) => tags.has(AMBIGUITY_TAG_PREFIX + family));
}
