import * as z from 'zod';
import { MAX_TOKEN_LENGTH } from '../../../core/input-limits.js';
import { MAX_QUERY_LENGTH } from '../../../core/rules/scan-query.js';
import { withHintExample } from '../../field-hints.js';
import { boundedString, calendarIdString, PROJECT_ID_EXAMPLE, rfc3339, storedText } from '../../schemas.js';
import type { ToolAnnotations } from '../../tool-definition.js';

/** Shared input and output pieces of the rules tools, described once. */

/** Reads of projects, rules and calendars: nothing changes; calendars live at providers. */
export const RULES_READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/** Reads of Meridian's own records only (projects): nothing changes, no provider is asked. */
export const RULES_STORE_READ: ToolAnnotations = { ...RULES_READ, openWorldHint: false };

/** Changes to Meridian's own records (projects, rules, pins): the providers are not touched. */
export const rulesWrite = (hints: { idempotent: boolean; destructive?: boolean }): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: hints.destructive ?? false,
  idempotentHint: hints.idempotent,
  openWorldHint: false,
});

/** A plain-language description of events, as create_rule_from_description (and write-rule) take it. */
export const draftDescriptionInput = z.string().min(1).max(500);

export const projectIdInput = withHintExample(boundedString(64), PROJECT_ID_EXAMPLE).describe(
  'From list_projects, e.g. "prj_…".',
);
export const ruleIdInput = boundedString(64).describe('From list_rules, e.g. "rul_…".');

export const queryInput = storedText(MAX_QUERY_LENGTH).describe(
  'Rule query, e.g. "domain:acme.com -title:canceled"; syntax: timesheet://docs/rules-syntax.',
);

export const ruleDescriptionInput = storedText(500).describe('Why the rule exists.');

export const weightInput = z
  .number()
  .int()
  .min(-1000)
  .max(1000)
  .describe('Priority when rules conflict: higher wins (default 1).');

export const ifVersionInput = z
  .number()
  .int()
  .min(1)
  .describe('The version you read: STALE_WRITE if it changed since.');

/** The window and calendars a rules read covers. */
export const windowInputs = {
  start: rfc3339('window start (default: 30 days before now, or before end)').optional(),
  end: rfc3339('window end (default: 30 days after now)').optional(),
  calendar_ids: z
    .array(calendarIdString())
    .min(1)
    .max(50)
    .optional()
    .describe('Default: every calendar you may read.'),
};

/** The window a rules read used, said in every answer that read one. */
export const WindowOutput = z.object({ start: z.string(), end: z.string() });

// A proposal id is the proposal itself, encoded (rule-proposal.ts): no short example is a real one.
export const proposalIdInput = withHintExample(
  boundedString(MAX_TOKEN_LENGTH),
  'prop_eyJ2IjoxLCJxdWVyeSI6Ii4uLiJ9',
).describe('proposal_id from create_rule_from_description, instead of query.');

export const RoundingFields = z.object({
  minutes: z.number().int().min(1).max(240),
  mode: z.enum(['up', 'nearest']),
});

export const ProjectOutput = z.object({
  project_id: z.string(),
  name: z.string(),
  client: z.string().optional(),
  color: z.string().optional(),
  billable: z.boolean(),
  rounding: RoundingFields.optional(),
  archived: z.boolean(),
  version: z.number().int(),
  created_at: z.string(),
  access: z.enum(['read', 'write']).optional(),
});

export const RuleOutput = z.object({
  rule_id: z.string(),
  query: z.string(),
  project_id: z.string(),
  weight: z.number(),
  description: z.string().optional(),
  version: z.number().int(),
  created_at: z.string(),
});
