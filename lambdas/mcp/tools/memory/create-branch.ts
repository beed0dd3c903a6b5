import * as z from 'zod';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { storedText } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { branchIdField, MEMORY_WRITE, projectIdField } from './memory-fields.js';

export const createBranchTool = defineTool({
  name: 'create_branch',
  title: 'Create a memory branch',
  description:
    'Starts a branch of project memory for one topic of work (its own context). Call on a topic change.',
  input: z.object({
    project_id: projectIdField,
    branch_topic: storedText(200).describe('e.g. "User authentication".'),
    parent_branch: branchIdField.optional().describe('Parent branch id, for a sub-topic.'),
    idempotency_key: idempotencyKeyField,
  }),
  output: z.object({
    success: z.boolean(),
    branch_id: z.string(),
    branch_topic: z.string(),
    parent_branch: z.string().optional(),
    created_at: z.string(),
    verified: z.boolean(),
  }),
  annotations: MEMORY_WRITE,
  needs: 'memoryWrites',
  idempotencyKey: true,
  run: async (deps, input, { principal }) => {
    const branch = await deps.memory.createBranch(principal, input.project_id, {
      topic: input.branch_topic,
      parent_branch_id: input.parent_branch,
    });
    // Read back, as the reference's `verified` promises: the branch is there for the next call.
    const { branch: stored } = await deps.memory.memory.requireBranch(input.project_id, branch.branch_id);
    return {
      success: true,
      branch_id: branch.branch_id,
      branch_topic: branch.topic,
      ...(branch.parent_branch_id ? { parent_branch: branch.parent_branch_id } : {}),
      created_at: branch.created_at,
      verified: stored.version === branch.version,
    };
  },
});
