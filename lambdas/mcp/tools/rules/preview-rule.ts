import * as z from 'zod';
import { DEFAULT_PREVIEW_LIMIT, MAX_PREVIEW_LIMIT } from '../../../core/rules/rules-service.js';
import { ianaZone, outputFormat, untrustedOutput } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import {
  projectIdInput,
  queryInput,
  RULES_READ,
  WindowOutput,
  weightInput,
  windowInputs,
} from './rules-schemas.js';

/** What a query matches, and (with a project) the change saving it would make. */
export const PreviewOutput = z.object({
  query: z.string(),
  matches: z.array(
    z.object({
      event_id: z.string(),
      calendar_id: z.string(),
      summary: z.string(),
      start: z.string(),
      end: z.string(),
      matched_conditions: z.array(z.string()),
      untrusted: untrustedOutput,
    }),
  ),
  total_matched: z.number().int(),
  minutes_matched: z.number(),
  not_counted: z
    .number()
    .int()
    .describe('Matches left out as get_timesheet leaves them: cancelled, declined, free.'),
  change: z
    .object({
      moves: z.array(
        z.object({
          from_project_id: z.string().nullable(),
          to_project_id: z.string(),
          events: z.number().int(),
          minutes: z.number(),
        }),
      ),
      events_moved: z.number().int(),
      unchanged: z.number().int(),
    })
    .optional(),
});

export const previewRuleTool = defineTool({
  name: 'preview_rule',
  title: 'Preview a rule',
  description:
    'Tests a query (saved or not) on past and upcoming events (default 30 days each side; the answer says the ' +
    'window): the matches, which conditions held, total minutes counted as get_timesheet counts, and with ' +
    'project_id how many events would move from which project. Use before create_rule.',
  input: z.object({
    query: queryInput,
    ...windowInputs,
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_PREVIEW_LIMIT)
      .default(DEFAULT_PREVIEW_LIMIT)
      .describe(`Matches to show (1–${MAX_PREVIEW_LIMIT}).`),
    project_id: projectIdInput.optional().describe('The project the rule would classify into.'),
    weight: weightInput.optional(),
    timezone: ianaZone("for match times. Default: each event's own zone.").optional(),
    format: outputFormat,
  }),
  output: PreviewOutput.extend({ window: WindowOutput, time_zone: z.string().optional() }),
  annotations: RULES_READ,
  needs: 'rules',
  run: (deps, input, { principal, work }) => deps.rules.previewRule(principal, input, work),
  toonView: ({ matches, ...rest }) => {
    // One table: the untrusted column only when a match is flagged, as list_events' rows.
    const flagged = matches.some((m) => m.untrusted?.length);
    return {
      ...rest,
      matches: matches.map(({ matched_conditions, untrusted, ...m }) => ({
        ...m,
        matched: matched_conditions.join(' '),
        ...(flagged ? { untrusted: untrusted?.join(' ') ?? '' } : {}),
      })),
    };
  },
});
