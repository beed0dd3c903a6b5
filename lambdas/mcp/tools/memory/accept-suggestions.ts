import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { contextIdField, outcome, sessionIdField } from './insight-schemas.js';
import { MEMORY_WRITE, projectIdField } from './memory-fields.js';

export const acceptSuggestionsTool = defineTool({
  name: 'accept_suggestions',
  title: 'Accept suggested contexts',
  description:
    'Records which suggested contexts you used (once per session); they become reference history for later suggestions.',
  input: z.object({
    project_id: projectIdField,
    session_id: sessionIdField,
    context_ids: z.array(contextIdField).min(1).max(20).describe('The suggested context_ids you used.'),
  }),
  output: z.object({ ...outcome, accepted_count: z.number().int() }),
  annotations: MEMORY_WRITE,
  needs: 'memoryInsights',
  run: async (deps, input, { principal }) => {
    const { accepted_count } = await deps.insights.acceptSuggestions(principal, input);
    return { success: true, accepted_count, message: 'Feedback recorded.' };
  },
});
