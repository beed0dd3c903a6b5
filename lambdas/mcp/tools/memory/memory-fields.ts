import * as z from 'zod';
import { withHintExample } from '../../field-hints.js';
import { boundedString, PROJECT_ID_EXAMPLE, storedText } from '../../schemas.js';
import type { ToolAnnotations } from '../../tool-definition.js';

/** Shared input fields and hints of the memory tools, described once. */

/** A branch id as create_branch makes them: topic, creation instant, random tail. */
export const BRANCH_ID_EXAMPLE = 'payment_retries_20261124_092338_973d';

/** The id of a branch's context, as get_active_summary, search and suggestions name it. */
export const CONTEXT_ID_EXAMPLE = `ctx_${BRANCH_ID_EXAMPLE}`;

// Ids become parts of table and blob keys: letters, digits, "_" and "-" only.
const ID = /^[A-Za-z0-9_-]+$/;

export const projectIdField = withHintExample(boundedString(64), PROJECT_ID_EXAMPLE)
  .regex(ID, `expected a project id from initialize_context, e.g. "${PROJECT_ID_EXAMPLE}"`)
  .describe('From initialize_context.');

export const branchIdField = withHintExample(boundedString(120), BRANCH_ID_EXAMPLE)
  .regex(ID, 'expected a branch id from create_branch or list_branches')
  .describe('From create_branch or list_branches.');

/** A git branch name as git allows it (no spaces, `~ ^ : ? * [ \`, no `..`). */
export const gitBranchField = storedText(200)
  // No lookahead: published schemas must stay plain regular expressions (the fuzz test generates from them).
  .regex(/^[^\s~^:?*[\\]+$/, 'expected a git branch name, e.g. "feature/auth"')
  .refine((name) => !name.includes('..'), 'expected a git branch name without "..", e.g. "feature/auth"')
  .describe('A git branch name, e.g. "feature/auth".');

/** Memory reads: nothing changes, the same answer twice, nothing outside Meridian. */
export const MEMORY_READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Memory writes that add or link (nothing is deleted). */
export const MEMORY_WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

export const EntryOutput = z.object({
  entry_id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  ontology_category: z.string(),
  version: z.number().int(),
  created_at: z.string(),
});
