import { z } from 'zod';
import { untrustedField } from '../../../core/firewall/untrusted-marks.js';
import { resumeView } from '../../../core/memory/contexts/branch-summary.js';
import { untrustedOutput } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { branchIdField, gitBranchField, MEMORY_READ, projectIdField } from './memory-fields.js';

/** Enough of the latest messages to resume from, and no more. */
const SUMMARY_CONTENT_CHARS = 4000;

export const getActiveSummaryTool = defineTool({
  name: 'get_active_summary',
  title: 'Get branch summary',
  description:
    "A branch's summary and latest messages, to resume work. Name it by branch_id or git_branch; with neither, the " +
    'branch linked to the checked-out git branch (where this server reads the folder for you).',
  input: z.object({
    project_id: projectIdField,
    branch_id: branchIdField.optional(),
    git_branch: gitBranchField.optional(),
  }),
  output: z.object({
    success: z.boolean(),
    branch_id: z.string(),
    branch_topic: z.string(),
    summary: z.string(),
    content: z.string(),
    content_truncated: z.boolean(),
    last_updated: z.string(),
    message_count: z.number().int(),
    status: z.enum(['active', 'compressed']),
    resolved_from: z.enum(['branch_id', 'git_branch', 'git_head']),
    git_branch: z.string().optional(),
    untrusted: untrustedOutput,
  }),
  annotations: MEMORY_READ,
  needs: 'memory',
  run: async (deps, input, { principal }) => {
    const { resolved, view } = await deps.memory.activeBranch(principal, input.project_id, input);
    const { summary, latest, untrusted } = resumeView(view, SUMMARY_CONTENT_CHARS);
    return {
      success: true,
      branch_id: view.branch.branch_id,
      branch_topic: view.branch.topic,
      summary,
      content: latest.text,
      content_truncated: latest.truncated,
      last_updated: view.last_updated,
      message_count: view.entries.length,
      status: view.status,
      resolved_from: resolved.resolved_from,
      ...(view.branch.git_branch ? { git_branch: view.branch.git_branch } : {}),
      ...untrustedField(untrusted),
    };
  },
});
