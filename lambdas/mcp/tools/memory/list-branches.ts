import * as z from 'zod';
import { untrustedField } from '../../../core/firewall/untrusted-marks.js';
import { outputFormat, untrustedOutput } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { pageAfter, pageCursorField, pageLimitField } from './list-paging.js';
import { BRANCH_ID_EXAMPLE, MEMORY_READ, projectIdField } from './memory-fields.js';

export const listBranchesTool = defineTool({
  name: 'list_branches',
  title: 'List memory branches',
  description:
    "A project's memory branches, oldest first, with their topics and linked git branches. Paged: pass next_cursor for more.",
  input: z.object({
    project_id: projectIdField,
    limit: pageLimitField,
    cursor: pageCursorField(BRANCH_ID_EXAMPLE),
    format: outputFormat,
  }),
  output: z.object({
    branches: z.array(
      z.object({
        branch_id: z.string(),
        branch_topic: z.string(),
        untrusted: untrustedOutput,
        parent_branch: z.string().optional(),
        git_branch: z.string().optional(),
        created_at: z.string(),
      }),
    ),
    total_branches: z.number().int(),
    next_cursor: z.string().optional(),
  }),
  annotations: MEMORY_READ,
  needs: 'memory',
  run: async (deps, input, { principal }) => {
    const branches = await deps.memory.listBranches(principal, input.project_id);
    const { page, next_cursor } = pageAfter(branches, (b) => b.branch_id, {
      ...input,
      list: `the branches of project ${input.project_id}`,
    });
    return {
      branches: page.map((b) => ({
        branch_id: b.branch_id,
        branch_topic: b.topic,
        // Another writer's topic reaches this agent: flagged as entries are (docs/content-firewall.md).
        ...untrustedField(b.untrusted),
        ...(b.parent_branch_id ? { parent_branch: b.parent_branch_id } : {}),
        ...(b.git_branch ? { git_branch: b.git_branch } : {}),
        created_at: b.created_at,
      })),
      total_branches: branches.length,
      ...(next_cursor === undefined ? {} : { next_cursor }),
    };
  },
});
