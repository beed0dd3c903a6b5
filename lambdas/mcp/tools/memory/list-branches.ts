import { z } from 'zod';
import { outputFormat } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { MEMORY_READ, projectIdField } from './memory-fields.js';

export const listBranchesTool = defineTool({
  name: 'list_branches',
  title: 'List memory branches',
  description: "A project's memory branches, oldest first, with their topics and linked git branches.",
  input: z.object({ project_id: projectIdField, format: outputFormat }),
  output: z.object({
    branches: z.array(
      z.object({
        branch_id: z.string(),
        branch_topic: z.string(),
        parent_branch: z.string().optional(),
        git_branch: z.string().optional(),
        created_at: z.string(),
      }),
    ),
    total_branches: z.number().int(),
  }),
  annotations: MEMORY_READ,
  needs: 'memory',
  run: async (deps, input, { principal }) => {
    const branches = await deps.memory.listBranches(principal, input.project_id);
    return {
      branches: branches.map((b) => ({
        branch_id: b.branch_id,
        branch_topic: b.topic,
        ...(b.parent_branch_id ? { parent_branch: b.parent_branch_id } : {}),
        ...(b.git_branch ? { git_branch: b.git_branch } : {}),
        created_at: b.created_at,
      })),
      total_branches: branches.length,
    };
  },
});
