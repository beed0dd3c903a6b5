import * as z from 'zod';
import { calendarIdString, untrustedOutput } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { eventIdInput } from '../calendar/calendar-schemas.js';
import { RULES_READ } from './rules-schemas.js';

const Outcome = z.object({
  rule_id: z.string(),
  project_id: z.string(),
  query: z.string(),
  weight: z.number(),
  conditions: z.number().int(),
  created_at: z.string(),
});

export const explainClassificationTool = defineTool({
  name: 'explain_classification',
  title: 'Explain a classification',
  description:
    'Why one event is in its project: the pin or winning rule, and every other matching rule with why it lost ' +
    '(pin, then higher weight, then more conditions, then newer rule). Rules of projects you cannot read show as "other".',
  input: z.object({
    calendar_id: calendarIdString().describe('From list_calendars.'),
    event_id: eventIdInput,
  }),
  output: z.object({
    event_id: z.string(),
    calendar_id: z.string(),
    summary: z.string(),
    untrusted: untrustedOutput,
    project_id: z.string().nullable(),
    decided_by: z.enum(['pin', 'rule', 'none']),
    counts: z.boolean().describe('Whether get_timesheet counts its time.'),
    not_counted_because: z.string().optional(),
    pin: z.object({ scope: z.string(), target_id: z.string(), pinned_at: z.string() }).optional(),
    winner: Outcome.optional(),
    others: z.array(Outcome.extend({ lost_because: z.string() })),
  }),
  annotations: RULES_READ,
  needs: 'rules',
  run: (deps, input, { principal }) => deps.rules.explainClassification(principal, input),
});
