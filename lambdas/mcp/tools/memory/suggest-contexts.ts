import * as z from 'zod';
import { boundedString } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { outcome } from './insight-schemas.js';
import { MEMORY_WRITE, projectIdField } from './memory-fields.js';

export const suggestContextsTool = defineTool({
  name: 'suggest_contexts',
  title: 'Suggest contexts for a task',
  description:
    'Contexts worth loading for the task, from reference history (what was accepted for similar tasks, and together) ' +
    'and similarity. Then call accept_suggestions or reject_suggestions with the session_id.',
  input: z.object({
    project_id: projectIdField,
    current_context: boundedString(4_000).describe('The current task or topic.'),
    top_k: z.number().int().min(1).max(20).default(5).describe('How many suggestions.'),
  }),
  output: z.object({
    ...outcome,
    session_id: z.string(),
    suggestions: z.array(
      z.object({
        context_id: z.string(),
        branch_id: z.string(),
        branch_topic: z.string(),
        label: z.string(),
        reason: z.string(),
        confidence: z.number(),
        source: z.enum(['reference_history', 'similarity']),
      }),
    ),
    total_suggestions: z.number().int(),
  }),
  // It records the session the feedback will refer to.
  annotations: MEMORY_WRITE,
  needs: 'memoryInsights',
  run: async (deps, input, { principal }) => {
    const { session_id, suggestions } = await deps.insights.suggestContexts(principal, input);
    return {
      success: true,
      session_id,
      suggestions,
      total_suggestions: suggestions.length,
      message:
        suggestions.length === 0
          ? 'Nothing in memory relates to this task yet; call reject_suggestions to close the session.'
          : `${suggestions.length} contexts suggested; call accept_suggestions or reject_suggestions.`,
    };
  },
});
