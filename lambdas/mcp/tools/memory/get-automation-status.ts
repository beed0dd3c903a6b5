import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { MEMORY_READ, projectIdField } from './memory-fields.js';

export const getAutomationStatusTool = defineTool({
  name: 'get_automation_status',
  title: 'Suggestion automation plan',
  description:
    'Plan A (apply suggestions automatically) when the 95% Wilson lower bound of the suggestion acceptance rate is ≥ 0.70, ' +
    'else Plan B (confirm each); with the counts.',
  input: z.object({ project_id: projectIdField }),
  output: z.object({
    success: z.boolean(),
    current_plan: z.enum(['A', 'B']),
    acceptance_rate: z.number().nullable(),
    rejection_rate: z.number().nullable(),
    wilson_lower_bound: z.number(),
    feedback_count: z.number().int(),
    accepted_count: z.number().int(),
    rejected_count: z.number().int(),
    pending_count: z.number().int(),
    message: z.string(),
  }),
  annotations: MEMORY_READ,
  needs: 'memoryInsights',
  run: async (deps, input, { principal }) => ({
    success: true,
    ...(await deps.insights.automationStatus(principal, input.project_id)),
  }),
});
