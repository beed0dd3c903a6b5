import * as z from 'zod';
import { WEEKDAY_KEYS } from '../../core/time/resolve/business-days.js';
import { CATEGORIES } from '../../core/time/resolve/components.js';
import { compute } from '../computation-turns.js';
import { timeAt } from '../computations.js';
import { ianaZone, rfc3339 } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';
import { ambiguityFields } from './ambiguity-output.js';

export const ResolveDatetimeInput = z.object({
  expression: z.string().trim().min(1).max(200).describe('Time expression, e.g. "next Tuesday at 2pm".'),
  timezone: ianaZone('to read the expression in. Omit to use the configured zone (UTC if none).').optional(),
  reference_time: rfc3339('resolve relative to this instant instead of now.').optional(),
  weekend: z
    .array(z.enum(WEEKDAY_KEYS))
    .max(7)
    .optional()
    .describe('Days off for "business day" forms, e.g. ["fri","sat"]; default the locale\'s, else sat, sun.'),
  locale: z.string().max(35).optional().describe('BCP 47 locale whose weekend to use, e.g. "he-IL".'),
});
export type ResolveDatetimeInput = z.infer<typeof ResolveDatetimeInput>;

export const ResolveDatetimeOutput = z.object({
  resolved_utc: z.string().describe('The resolved instant in UTC, RFC 3339 with "+00:00".'),
  resolved_local: z.string().describe('The same instant in `timezone`, RFC 3339 with its offset.'),
  timezone: z.string().describe('IANA zone the expression was read in.'),
  interpretation: z
    .string()
    .describe(
      'Plain-English reading to confirm with the user, e.g. "Tuesday, February 24, 2026 at 2:00 PM".',
    ),
  reference_time: z.string().describe('The instant the expression was resolved relative to, in `timezone`.'),
  matched_category: z
    .enum(CATEGORIES)
    .describe('Which kind of expression matched; "combined" for a date plus a time.'),
  expression_timezone: z
    .string()
    .optional()
    .describe('Zone named in the expression ("3pm PST": "UTC-8"), whose clock it was read on.'),
  range: z
    .object({ start: z.string(), end: z.string(), end_utc: z.string() })
    .optional()
    .describe('For a period alone ("Q1 2027"): its start and exclusive end.'),
  ...ambiguityFields,
});
export type ResolveDatetimeOutput = z.infer<typeof ResolveDatetimeOutput>;

// What an agent cannot guess: the forms that parse and the readings it must not assume.
const DESCRIPTION = [
  'Resolves a time expression to one RFC 3339 instant in an IANA zone, relative to now (or reference_time);',
  'use it instead of your own date arithmetic. Forms: "2pm", "+2h", "in 3 days", "next Tuesday at 2pm",',
  '"tomorrow morning", "end of month", "first Monday of March", "March 15", ISO 8601, "next business day",',
  '"in 3 business days", "Q1 2027", "H2", "the week after next" (these get a range).',
  'A zone at the end ("3pm PST", "15:00 Tokyo time", "noon in London", "9am UTC+2") is the clock the words are',
  'read on; the answer stays in timezone. An abbreviation is its fixed offset (PST = UTC−8 in July too).',
  'Weeks run Monday–Sunday: "next X" is X of next week; "this X" is X of this week; "last X" is the most recent',
  'X before today; a bare weekday is the next one. A date alone is 00:00. When another common reading exists',
  '("3pm CST": US, China, Cuba) the answer has ambiguous: true and alternatives: confirm with the person.',
].join(' ');

export const resolveDatetimeTool = defineTool({
  name: 'resolve_datetime',
  title: 'Resolve a time expression',
  description: DESCRIPTION,
  input: ResolveDatetimeInput,
  output: ResolveDatetimeOutput,
  annotations: PURE_COMPUTATION,
  needs: 'time',
  run: (deps, input) => compute('resolveDatetime', { at: timeAt(deps), input }),
});
