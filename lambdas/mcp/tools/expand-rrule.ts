import { z } from 'zod';
import { MAX_INSTANT_TEXT_LENGTH, MAX_RECURRENCE_LINE_LENGTH } from '../../core/input-limits.js';
import {
  DEFAULT_PAGE_SIZE,
  expandRrule,
  MAX_DURATION_MINUTES,
  MAX_INSTANCES,
} from '../../core/time/recurrence/expand-rrule.js';
import { boundedString, ianaZone, outputFormat, rfc3339 } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';

const localDateTime = (purpose: string) =>
  boundedString(MAX_INSTANT_TEXT_LENGTH).describe(
    `Local wall-clock date-time WITHOUT offset or "Z", e.g. "2026-03-01T09:00:00" (seconds optional): ${purpose}`,
  );

export const ExpandRruleInput = z.object({
  rrule: boundedString(MAX_RECURRENCE_LINE_LENGTH).describe(
    'RFC 5545 RRULE value, e.g. "FREQ=WEEKLY;BYDAY=MO,WE,FR" or "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1". An "RRULE:" prefix and lower case are accepted. UNTIL must be UTC with a trailing "Z" (e.g. "UNTIL=20261231T235959Z"). COUNT and UNTIL are mutually exclusive.',
  ),
  dtstart: localDateTime('the first occurrence, read in "timezone".'),
  timezone: ianaZone("in which dtstart, exdates and the rule's times of day are read."),
  duration_minutes: z
    .number()
    .int()
    .min(0)
    .max(MAX_DURATION_MINUTES)
    .default(60)
    .describe('Length of each instance in elapsed minutes; "end" = "start" + this. Default 60.'),
  count: z
    .number()
    .int()
    .min(1)
    .max(MAX_INSTANCES)
    .optional()
    .describe(
      `Most instances to return (1-${MAX_INSTANCES}). Default ${DEFAULT_PAGE_SIZE}. If more exist, "truncated" is true and "next_after" says where to continue.`,
    ),
  exdates: z
    .array(localDateTime('an occurrence start to leave out.'))
    .max(MAX_INSTANCES)
    .optional()
    .describe('Occurrence starts to exclude, as local date-times in "timezone" (same form as dtstart).'),
  after: rfc3339(
    'only instances starting at or after this instant. Use "next_after" from a previous call to page.',
  ).optional(),
  before: rfc3339('only instances starting at or before this instant.').optional(),
  format: outputFormat,
});
export type ExpandRruleInput = z.infer<typeof ExpandRruleInput>;

export const ExpandRruleOutput = z.object({
  instances: z
    .array(
      z.object({
        start: z.string().describe('Instance start, RFC 3339 in UTC (+00:00).'),
        end: z.string().describe('Instance end (start + duration_minutes), RFC 3339 in UTC.'),
        local_start: z.string().describe('The start on the wall clock of "timezone", with its offset.'),
      }),
    )
    .describe('Instances in start order.'),
  count: z.number().int().describe('Number of instances returned.'),
  truncated: z.boolean().describe('True when more instances exist after the last one returned.'),
  next_after: z
    .string()
    .optional()
    .describe(
      'Present when truncated: start of the next instance. Call again with after = this to get the next page.',
    ),
  timezone: z.string().describe('The zone the rule was expanded in.'),
});
export type ExpandRruleOutput = z.infer<typeof ExpandRruleOutput>;

export const expandRruleTool = defineTool({
  name: 'expand_rrule',
  title: 'Expand recurrence rule',
  description: [
    'Expand an RFC 5545 recurrence rule (RRULE) into concrete instances with UTC start/end times.',
    'Give the rule, a LOCAL dtstart without offset and the IANA timezone it is in; every instance keeps that wall-clock time across DST changes.',
    'DST: a time that does not exist (spring-forward gap) uses the offset before the gap, so 02:30 on the New York spring-forward day becomes 03:30 EDT (07:30Z); a time that occurs twice (fall-back) is its first occurrence (the DST one). Instances that land on the same instant are merged (e.g. an hourly rule in a gap), so COUNT may yield fewer.',
    'UNTIL must be UTC ending in "Z" (a rule whose UNTIL lacks "Z" is refused with INVALID_RRULE: convert the local end to UTC).',
    `Paging: at most "count" instances (default ${DEFAULT_PAGE_SIZE}, max ${MAX_INSTANCES}) are returned. If "truncated" is true, call again with the same arguments and after = "next_after". Use after/before (RFC 3339 instants, inclusive) to ask for a window; a far-past dtstart is fine unless the rule has COUNT, in which case every earlier instance is counted first.`,
    'Errors: INVALID_RRULE (the message names the part to fix; also for a rule that can never occur, e.g. BYMONTH=2;BYMONTHDAY=30), INVALID_DATETIME (dtstart, exdates, after, before), INVALID_TIMEZONE (with suggestions).',
  ].join(' '),
  input: ExpandRruleInput,
  output: ExpandRruleOutput,
  annotations: PURE_COMPUTATION,
  run: (_deps, input) => {
    const result = expandRrule({
      rrule: input.rrule,
      dtstart: input.dtstart,
      timezone: input.timezone,
      durationMinutes: input.duration_minutes,
      count: input.count,
      exdates: input.exdates,
      after: input.after,
      before: input.before,
    });
    return {
      instances: result.instances.map((i) => ({ start: i.start, end: i.end, local_start: i.localStart })),
      count: result.instances.length,
      truncated: result.truncated,
      ...(result.nextAfter === undefined ? {} : { next_after: result.nextAfter }),
      timezone: result.timezone,
    };
  },
});
