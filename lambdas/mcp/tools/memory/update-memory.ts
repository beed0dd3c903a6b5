import { z } from 'zod';
import { withHintExample } from '../../field-hints.js';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { boundedString } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { branchIdField, MEMORY_WRITE, projectIdField } from './memory-fields.js';

export const updateMemoryTool = defineTool({
  name: 'update_memory',
  title: 'Save to memory',
  description:
    "Appends a message to a branch's context (secrets redacted). With entry_id it replaces that entry; add if_version to " +
    'refuse (CONFLICT) if it changed since you read it.',
  input: z.object({
    project_id: projectIdField,
    branch_id: branchIdField,
    content: boundedString(16_000).describe('The message to save.'),
    role: z.enum(['user', 'assistant']),
    entry_id: withHintExample(boundedString(64), 'e0mwuhm6fv1895629d78ff')
      .optional()
      .describe('Replace this entry instead of appending.'),
    if_version: z.number().int().min(1).optional().describe("With entry_id: the entry's version you read."),
    verify: z
      .boolean()
      .optional()
      .describe('Also score it against the rest of memory (grounding_score; reads the whole memory).'),
    idempotency_key: idempotencyKeyField,
  }),
  output: z.object({
    success: z.boolean(),
    entry_id: z.string(),
    version: z.number().int(),
    ontology_category: z.string(),
    secrets_redacted: z.number().int(),
    grounding_score: z.number().optional(),
    hallucination_status: z.string().optional(),
    indexed: z.boolean(),
    message: z.string(),
  }),
  annotations: MEMORY_WRITE,
  needs: 'memory',
  idempotencyKey: true,
  run: async (deps, input, { principal }) => {
    const { entry, redacted } = await deps.memory.updateMemory(principal, input.project_id, input);
    // Opt-in: checking reads the whole memory, which a plain append must not pay for.
    const grounding = input.verify
      ? await deps.insights.groundingOfEntry(principal, input.project_id, entry)
      : undefined;
    return {
      ...(grounding?.grounding_score != null ? { grounding_score: grounding.grounding_score } : {}),
      ...(grounding ? { hallucination_status: grounding.status } : {}),
      success: true,
      entry_id: entry.entry_id,
      version: entry.version,
      ontology_category: entry.category,
      secrets_redacted: redacted,
      // Search reads the table (rebuilding its index when the revision moved): stored is indexed.
      indexed: true,
      message: entry.version === 1 ? 'Saved.' : `Replaced (version ${entry.version}).`,
    };
  },
});
