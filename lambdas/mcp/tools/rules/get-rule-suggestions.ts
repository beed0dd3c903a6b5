import * as z from 'zod';
import { outputFormat } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { RULES_READ, WindowOutput, windowInputs } from './rules-schemas.js';

export const getRuleSuggestionsTool = defineTool({
  name: 'get_rule_suggestions',
  title: 'Suggest rules',
  description:
    'Rules worth writing, from unclassified, counted time in the window (default 30 days back to 30 ahead; ' +
    'the answer says it): external attendee domains, recurring series, title phrases, and corrections where ' +
    'pins contradict a rule. Each has its query, the events and minutes it would cover (a correction: what ' +
    'saving it moves; pins never move), its precision on classified events, and alternatives: queries ' +
    'covering the same events, merged into it.',
  input: z.object({ ...windowInputs, format: outputFormat }),
  output: z.object({
    suggestions: z.array(
      z.object({
        kind: z.string(),
        query: z.string(),
        reason: z.string(),
        events: z.number().int(),
        minutes: z.number(),
        precision: z
          .object({ classified_events: z.number().int(), top_project_id: z.string(), share: z.number() })
          .nullable(),
        project_id: z.string().optional(),
        weight: z.number().optional(),
        exception: z.object({ rule_id: z.string(), query: z.string() }).optional(),
        alternatives: z.array(z.string()).optional(),
      }),
    ),
    count: z.number().int(),
    window: WindowOutput,
  }),
  annotations: RULES_READ,
  needs: 'rules',
  run: async (deps, input, { principal, work }) => {
    const { suggestions, window } = await deps.rules.getRuleSuggestions(principal, input, work);
    return { suggestions, count: suggestions.length, window };
  },
});
