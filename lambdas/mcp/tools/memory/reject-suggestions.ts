import * as z from 'zod';
import { boundedString } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { outcome, sessionIdField } from './insight-schemas.js';
import { MEMORY_WRITE, projectIdField } from './memory-fields.js';

export const rejectSuggestionsTool = defineTool({
  name: 'reject_suggestions',
  title: 'Reject suggested contexts',
  description:
    'Records that a session’s suggestions did not fit, and why (once per session); similar tasks get them less.',
  input: z.object({
    project_id: projectIdField,
    session_id: sessionIdField,
    reason: boundedString(500).describe('Why they did not fit.'),
  }),
  output: z.object(outcome),
  annotations: MEMORY_WRITE,
  needs: 'memoryInsights',
  run: async (deps, input, { principal }) => {
    await deps.insights.rejectSuggestions(principal, input);
    return { success: true, message: 'Feedback recorded.' };
  },
});
