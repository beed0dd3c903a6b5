import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { branchIdField, gitBranchField, MEMORY_WRITE, projectIdField } from './memory-fields.js';

export const linkGitBranchTool = defineTool({
  name: 'link_git_branch',
  title: 'Link a git branch',
  description:
    'Links a git branch to a memory branch: get_active_summary then accepts git_branch, and follows the checked-out ' +
    'branch where this server reads the project folder for you.',
  input: z.object({
    project_id: projectIdField,
    cortex_branch_id: branchIdField.describe('The memory branch, from create_branch.'),
    git_branch_name: gitBranchField,
  }),
  output: z.object({
    success: z.boolean(),
    linked: z.boolean(),
    auto_switch: z.boolean(),
    current_git_branch: z.string().optional(),
    message: z.string(),
  }),
  annotations: { ...MEMORY_WRITE, idempotentHint: true },
  needs: 'memory',
  run: async (deps, input, { principal }) => {
    const { current_git_branch: head } = await deps.memory.linkGitBranch(
      principal,
      input.project_id,
      input.cortex_branch_id,
      input.git_branch_name,
    );
    const autoSwitch = head !== undefined;
    return {
      success: true,
      linked: true,
      auto_switch: autoSwitch,
      ...(head === undefined ? {} : { current_git_branch: head }),
      message: autoSwitch
        ? `Linked. The folder is on "${head}"; get_active_summary without ids follows it.`
        : "Linked. Pass git_branch to get_active_summary (this server does not read the folder's .git/HEAD for you).",
    };
  },
});
