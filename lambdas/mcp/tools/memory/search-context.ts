import * as z from 'zod';
import { MEMORY_CATEGORIES } from '../../../core/memory/store/categories.js';
import { boundedString, outputFormat, untrustedOutput } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { branchIdField, gitBranchField, MEMORY_READ, projectIdField } from './memory-fields.js';

export const searchContextTool = defineTool({
  name: 'search_context',
  title: 'Search memory',
  description:
    "Keyword + semantic search of a project's memory, best first; narrow by branch_id, git_branch or " +
    'filter_category. score 0-1 (1 = top for both).',
  input: z.object({
    project_id: projectIdField,
    query: boundedString(1000).describe('What to find, in words.'),
    branch_id: branchIdField.optional(),
    git_branch: gitBranchField.optional(),
    top_k: z.number().int().min(1).max(100).default(10).describe('Results at most.'),
    min_score: z.number().min(0).max(1).default(0.3).describe('Leave out results scoring lower (0-1).'),
    filter_category: z.enum(MEMORY_CATEGORIES).optional(),
    format: outputFormat,
  }),
  output: z.object({
    success: z.boolean(),
    results: z.array(
      z.object({
        item_id: z.string(),
        branch_id: z.string(),
        kind: z.string(),
        category: z.string(),
        score: z.number(),
        snippet: z.string(),
        created_at: z.string(),
        untrusted: untrustedOutput,
      }),
    ),
    total_results: z.number().int(),
    search_time_ms: z.number(),
    branch_id: z.string().optional(),
  }),
  annotations: MEMORY_READ,
  needs: 'memorySearch',
  run: async (deps, input, { principal }) => {
    const answer = await deps.search.search(principal, {
      project_id: input.project_id,
      query: input.query,
      branch_id: input.branch_id,
      git_branch: input.git_branch,
      top_k: input.top_k,
      min_score: input.min_score,
      category: input.filter_category,
    });
    return {
      success: true,
      results: answer.results.map((hit) => ({
        item_id: hit.item_id,
        branch_id: hit.branch_id,
        kind: hit.kind,
        category: hit.category ?? 'other',
        score: hit.score,
        snippet: hit.snippet,
        created_at: hit.created_at,
        ...(hit.untrusted ? { untrusted: hit.untrusted } : {}),
      })),
      total_results: answer.total_results,
      search_time_ms: answer.search_time_ms,
      ...(answer.branch_id === undefined ? {} : { branch_id: answer.branch_id }),
    };
  },
});
