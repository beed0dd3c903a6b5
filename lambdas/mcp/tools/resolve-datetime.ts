import { z } from 'zod';
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
  ...ambiguityFields,
});
export type ResolveDatetimeOutput = z.infer<typeof ResolveDatetimeOutput>;

// What an agent cannot guess: the forms that parse and the readings it must not assume.
const DESCRIPTION = [
  'Resolves a time expression to one RFC 3339 instant in an IANA zone, relative to now (or reference_time);',
  'use it instead of your own date arithmetic. Forms: "2pm", "+2h", "in 3 days", "next Tuesday at 2pm",',
  '"tomorrow morning", "end of month", "first Monday of March", "March 15", ISO 8601.',
  'Weeks run Monday–Sunday: "next X" is X of next week; "this X" is X of this week; "last X" is the most recent',
  'X before today; a bare weekday is the next one. A date alone is 00:00. When another common reading exists the',
  'answer has ambiguous: true and alternatives: confirm with the person. Ranges are refused.',
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
