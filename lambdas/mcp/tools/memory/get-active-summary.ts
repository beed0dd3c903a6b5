import * as z from 'zod';
import { unionOfMarks, untrustedField } from '../../../core/firewall/untrusted-marks.js';
import { echo } from '../../../core/input-limits.js';
import { resumeView } from '../../../core/memory/contexts/branch-summary.js';
import type { ResolvedBranch } from '../../../core/memory/memory-service.js';
import { untrustedOutput } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { branchIdField, gitBranchField, MEMORY_READ, projectIdField } from './memory-fields.js';

/** Enough of the latest messages to resume from, and no more. */
const SUMMARY_CONTENT_CHARS = 4000;

const Note = z.object({ text: z.string(), branch_id: z.string(), entry_id: z.string() });

export const getActiveSummaryTool = defineTool({
  name: 'get_active_summary',
  title: 'Get branch summary',
  description:
    "A branch's summary and latest messages, to resume work. Name it by branch_id or git_branch; with neither, the " +
    'branch linked to the checked-out git branch, else the branch written to last (resolved_from: most_recent, ' +
    'said in note). project_summary: true adds what the whole project decided, across branches.',
  input: z.object({
    project_id: projectIdField,
    branch_id: branchIdField.optional(),
    git_branch: gitBranchField.optional(),
    project_summary: z
      .boolean()
      .optional()
      .describe(
        'Add decisions, rejected alternatives and open questions of every branch (reads all memory).',
      ),
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
    resolved_from: z.enum(['branch_id', 'git_branch', 'git_head', 'most_recent']),
    git_branch: z.string().optional(),
    note: z.string().optional(),
    project: z
      .object({
        decisions: z.array(Note),
        rejected: z.array(Note.extend({ alternative: z.string() })),
        open_questions: z.array(Note),
        omitted: z.object({ decisions: z.number(), rejected: z.number(), open_questions: z.number() }),
      })
      .optional(),
    untrusted: untrustedOutput,
  }),
  annotations: MEMORY_READ,
  needs: 'memory',
  run: async (deps, input, { principal, work }) => {
    const { resolved, view } = await deps.memory.activeBranch(principal, input.project_id, input, {
      mostRecent: true,
    });
    const { summary, latest, untrusted } = resumeView(view, SUMMARY_CONTENT_CHARS);
    const project = input.project_summary
      ? await deps.memory.projectDecisions(principal, input.project_id, work)
      : undefined;
    const note = resolved.resolved_from === 'most_recent' ? mostRecentNote(resolved) : undefined;
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
      ...(note ? { note } : {}),
      ...(project
        ? {
            project: {
              decisions: project.decisions,
              rejected: project.rejected,
              open_questions: project.open_questions,
              omitted: project.omitted,
            },
          }
        : {}),
      ...untrustedField(unionOfMarks([untrusted, project?.untrusted])),
    };
  },
});

/** Says that the branch was chosen, not named, and why: an agent should know it may be the wrong one. */
function mostRecentNote(resolved: ResolvedBranch): string {
  const why =
    resolved.unlinked_git_head === undefined
      ? 'No branch was named, and no current git branch this server may read is linked'
      : `No branch was named and git branch ${echo(resolved.unlinked_git_head)} is linked to none`;
  return `${why}: this is the branch written to last. Pass branch_id (list_branches) for another.`;
}
