import { z } from 'zod';
import { CATEGORIES } from '../../core/time/resolve/components.js';
import { resolveDatetime } from '../../core/time/resolve/resolve-datetime.js';
import { inOwnTurn } from '../computation-turns.js';
import { ianaZone, rfc3339 } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';

export const ResolveDatetimeInput = z.object({
  expression: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe(
      'Time expression to resolve, e.g. "next Tuesday at 2pm", "tomorrow morning", "+3h", "in 2 days", ' +
        '"end of month", "first Monday of March", "2026-03-15T09:00".',
    ),
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
  ambiguous: z
    .literal(true)
    .optional()
    .describe('Set when another common reading exists: confirm with the user.'),
  rule: z.string().optional().describe('When ambiguous: the rule behind the chosen reading.'),
  alternatives: z
    .array(
      z.object({
        resolved_utc: z.string(),
        resolved_local: z.string(),
        interpretation: z.string(),
        rule: z.string().describe('The rule that gives this reading.'),
      }),
    )
    .optional()
    .describe('When ambiguous: the other readings.'),
});
export type ResolveDatetimeOutput = z.infer<typeof ResolveDatetimeOutput>;

const DESCRIPTION = [
  'Resolve a human time expression into one exact RFC 3339 instant, read in an IANA zone relative to now',
  '(or reference_time). Use it instead of doing date arithmetic yourself.',
  'Forms: now/today/tomorrow/yesterday/tonight; weekdays ("next Monday", "this Friday", "last Wednesday", "Monday");',
  'times of day; explicit times ("2pm", "14:30", "at 9"); offsets ("+2h", "-30m", "+1d2h", "in 3 days", "2 weeks ago");',
  'combinations ("next Tuesday at 2pm", "tomorrow morning", "in 2 days at noon"); period boundaries ("start of week",',
  '"end of month", "next quarter"); ordinals ("first Monday of March", "last Friday of this month");',
  'dates ("March 15"); RFC 3339 / ISO 8601 (returned as that instant).',
  'Meanings: weeks run Monday–Sunday. "next X" is X of next week (on a Monday, "next Tuesday" is 8 days away);',
  '"this X" is X of the current week, possibly past; "last X" is the most recent X before today; a bare weekday is the',
  'first one after today. A date without a time is 00:00; a time alone is today, even if past; "at 5" is 05:00;',
  '03/04/2026 is month first. When another common reading exists the answer has ambiguous: true and alternatives.',
  '"end of <period>" is 23:59:59 on its last day; "next quarter"/"next month" is its first day at 00:00.',
  'morning 09:00, noon 12:00, afternoon 14:00, evening 18:00, tonight/night 20:00, eob/eod/cob 17:00,',
  '"end of day" 23:59:59, midnight = the 00:00 that ends the day. Hours/minutes/seconds are exact elapsed time;',
  'days/weeks/months/years keep the wall-clock time across DST. A wall time skipped by DST moves forward by the gap;',
  'a repeated one takes the first occurrence. Ranges are refused. Unreadable text fails with',
  'UNRECOGNIZED_EXPRESSION listing the supported forms.',
].join(' ');

export const resolveDatetimeTool = defineTool({
  name: 'resolve_datetime',
  title: 'Resolve a time expression',
  description: DESCRIPTION,
  input: ResolveDatetimeInput,
  output: ResolveDatetimeOutput,
  annotations: PURE_COMPUTATION,
  run: (deps, input) => inOwnTurn(() => resolveDatetime(deps, input)),
});
