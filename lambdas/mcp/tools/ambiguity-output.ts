import * as z from 'zod';

/** Another common reading of a time expression, with the rule that gives it. */
export const AlternativeReading = z.object({
  resolved_utc: z.string(),
  resolved_local: z.string(),
  interpretation: z.string(),
  rule: z.string(),
});

/**
 * How resolve_datetime and quick_add_event report an expression with more than one common
 * reading (core/time/resolve/ambiguity.ts): the same three fields in both answers.
 */
export const ambiguityFields = {
  /** Set when another common reading exists: confirm with the person. */
  ambiguous: z.literal(true).optional(),
  /** When ambiguous: the rule behind the chosen reading. */
  rule: z.string().optional(),
  /** When ambiguous: the other readings. */
  alternatives: z.array(AlternativeReading).optional(),
};
