import * as z from 'zod';
import { MAX_INSTANT_TEXT_LENGTH, MAX_RECURRENCE_LINE_LENGTH } from '../../core/input-limits.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_DURATION_MINUTES,
  MAX_INSTANCES,
} from '../../core/time/recurrence/expand-rrule.js';
import { compute } from '../computation-turns.js';
import { withHintExample } from '../field-hints.js';
import { boundedString, ianaZone, outputFormat, rfc3339 } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';

const localDateTime = (purpose: string) =>
  boundedString(MAX_INSTANT_TEXT_LENGTH).describe(
    `Local date-time WITHOUT offset, e.g. "2026-03-01T09:00": ${purpose}`,
  );

export const ExpandRruleInput = z.object({
  rrule: boundedString(MAX_RECURRENCE_LINE_LENGTH).describe(
    'RRULE value, e.g. "FREQ=WEEKLY;BYDAY=MO,WE,FR" or "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;UNTIL=20261231T235959Z".',
  ),
  dtstart: localDateTime('the first occurrence, read in "timezone".'),
  timezone: ianaZone("in which dtstart, exdates and the rule's times of day are read."),
  duration_minutes: z
    .number()
    .int()
    .min(0)
    .max(MAX_DURATION_MINUTES)
    .default(60)
    .describe('Length of each instance in minutes.'),
  count: z
    .number()
    .int()
    .min(1)
    .max(MAX_INSTANCES)
    .optional()
    .describe(`Most instances to return (default ${DEFAULT_PAGE_SIZE}).`),
  exdates: z
    .array(withHintExample(z.string().min(1), '2026-03-04T09:00'))
    .max(MAX_INSTANCES)
    .optional()
    .describe('Occurrence starts to leave out, in the same local form as dtstart.'),
  after: rfc3339('only instances starting at or after this (next_after pages).').optional(),
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
    'Expands an RFC 5545 RRULE into instances with UTC start/end. dtstart is LOCAL (no offset) in timezone; instances keep that wall-clock time across DST.',
    'A time in a DST gap uses the offset before it (02:30 on the New York spring-forward day is 03:30 EDT); a repeated time is its first occurrence.',
    `UNTIL must be UTC ending in "Z". At most "count" instances (default ${DEFAULT_PAGE_SIZE}); if "truncated", call again with after = "next_after".`,
  ].join(' '),
  input: ExpandRruleInput,
  output: ExpandRruleOutput,
  annotations: PURE_COMPUTATION,
  needs: 'time',
  run: async (_deps, input) => {
    const result = await compute('expandRrule', {
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
