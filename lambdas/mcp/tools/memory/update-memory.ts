import * as z from 'zod';
import { DomainError, type ErrorCode } from '../../../core/errors.js';
import {
  type BatchEntryResult,
  MAX_MEMORY_BATCH,
  updateMemoryBatch,
} from '../../../core/memory/memory-batch.js';
import { withHintExample } from '../../field-hints.js';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { boundedString } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { branchIdField, MEMORY_WRITE, projectIdField } from './memory-fields.js';

const contentField = boundedString(16_000).describe('The message to save.');
const roleField = z.enum(['user', 'assistant']);
const entryIdField = withHintExample(boundedString(64), 'e0mwuhm6fv1895629d78ff')
  .optional()
  .describe('Replace this entry instead of appending.');
const ifVersionField = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe("With entry_id: the entry's version you read.");

export const updateMemoryTool = defineTool({
  name: 'update_memory',
  title: 'Save to memory',
  description:
    "Appends a message to a branch's context (secrets redacted). With entry_id it replaces that entry; add if_version to " +
    `refuse (CONFLICT) if it changed since you read it. entries: up to ${MAX_MEMORY_BATCH} in one call, in order, each ` +
    'reported in results (stored, or refused with code and reason).',
  input: z.object({
    project_id: projectIdField,
    branch_id: branchIdField,
    content: contentField.optional(),
    role: roleField.optional().describe('Required with content.'),
    entry_id: entryIdField,
    if_version: ifVersionField,
    entries: z
      .array(
        // Described once, on the single-entry fields: the listing pays for every description.
        z.object({
          content: boundedString(16_000),
          role: roleField,
          entry_id: boundedString(64).optional(),
          if_version: z.number().int().min(1).optional(),
        }),
      )
      .min(1)
      .max(MAX_MEMORY_BATCH)
      .optional()
      .describe('Instead of content/role: several messages, each with the fields above.'),
    verify: z
      .boolean()
      .optional()
      .describe('Also score it against the rest of memory (grounding_score; reads the whole memory).'),
    idempotency_key: idempotencyKeyField,
  }),
  output: z.object({
    success: z.boolean(),
    entry_id: z.string().optional(),
    version: z.number().int().optional(),
    ontology_category: z.string().optional(),
    secrets_redacted: z.number().int().optional(),
    grounding_score: z.number().optional(),
    hallucination_status: z.string().optional(),
    results: z
      .array(
        z.object({
          index: z.number().int(),
          entry_id: z.string().optional(),
          version: z.number().int().optional(),
          ontology_category: z.string().optional(),
          secrets_redacted: z.number().int().optional(),
          error: z.object({ code: z.string(), message: z.string() }).optional(),
        }),
      )
      .optional(),
    indexed: z.boolean(),
    message: z.string(),
  }),
  annotations: MEMORY_WRITE,
  needs: 'memoryInsights',
  idempotencyKey: true,
  run: async (deps, input, { principal, work }) => {
    const { entries } = input;
    if (entries) {
      requireBatchAlone(input);
      const batch = { branch_id: input.branch_id, entries };
      const results = await updateMemoryBatch(deps.memory, principal, input.project_id, batch, work);
      return batchAnswer(results);
    }
    const { content, role } = requireSingleEntry(input);
    const { entry, redacted } = await deps.memory.updateMemory(principal, input.project_id, {
      ...input,
      content,
      role,
    });
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

function invalid(field: string, message: string): DomainError {
  return new DomainError('INVALID_INPUT', message, { field });
}

/** entries carries everything per entry; the single-entry fields beside it would be ambiguous. */
function requireBatchAlone(input: Record<string, unknown>): void {
  const clash = ['content', 'role', 'entry_id', 'if_version'].find((f) => input[f] !== undefined);
  if (clash)
    throw invalid(clash, `Pass either entries or content/role, not both: put "${clash}" inside each entry.`);
  if (input.verify)
    throw invalid(
      'verify',
      'verify checks one entry against the whole memory; for a batch leave it out and call verify_response on the text that matters.',
    );
}

function requireSingleEntry(input: {
  content?: string | undefined;
  role?: 'user' | 'assistant' | undefined;
}) {
  if (input.content === undefined)
    throw invalid('content', 'Pass content (the message) and role, or entries for several messages at once.');
  if (input.role === undefined) throw invalid('role', 'Pass role ("user" or "assistant") with content.');
  return { content: input.content, role: input.role };
}

/**
 * Every entry's outcome; a batch that stored nothing is an error, not a success with a count of
 * 0 (as batch_update_events): the code every entry failed with, else BATCH_FAILED.
 */
function batchAnswer(results: readonly BatchEntryResult[]) {
  const refused = results.flatMap((r) => (r.stored ? [] : [{ index: r.index, ...r.error }]));
  if (refused.length === results.length) {
    const codes = new Set(refused.map((r) => r.code));
    const code = codes.size === 1 ? (refused[0]!.code as ErrorCode) : 'BATCH_FAILED';
    throw new DomainError(
      code,
      `None of the ${results.length} entries was stored; see details.failures for each one's reason ` +
        `(first: entry ${refused[0]!.index}: ${refused[0]!.message})`,
      { failures: refused },
    );
  }
  const stored = results.length - refused.length;
  const refusedList = refused.map((r) => `entry ${r.index} (${r.code})`).join(', ');
  return {
    success: refused.length === 0,
    results: results.map((r) =>
      r.stored
        ? {
            index: r.index,
            entry_id: r.entry.entry_id,
            version: r.entry.version,
            ontology_category: r.entry.category,
            secrets_redacted: r.redacted,
          }
        : { index: r.index, error: r.error },
    ),
    indexed: true,
    message: `Stored ${stored} of ${results.length}${refused.length ? `; refused: ${refusedList}` : ''}.`,
  };
}
