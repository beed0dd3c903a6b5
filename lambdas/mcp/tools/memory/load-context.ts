import * as z from 'zod';
import { DomainError } from '../../../core/errors.js';
import { untrustedField } from '../../../core/firewall/untrusted-marks.js';
import { contextIdOf, contextText } from '../../../core/memory/contexts/context-text.js';
import { withHintExample } from '../../field-hints.js';
import { boundedString, untrustedOutput } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { branchIdField, CONTEXT_ID_EXAMPLE, MEMORY_READ, projectIdField } from './memory-fields.js';

/** A whole context, bounded: the newest messages are kept when it is longer. */
const LOAD_CONTENT_CHARS = 20_000;

export const loadContextTool = defineTool({
  name: 'load_context',
  title: 'Load a context',
  description:
    "A branch's full context (newest kept past 20,000 characters). A context compressed after 30 idle minutes is " +
    'decompressed and made active again.',
  input: z.object({
    project_id: projectIdField,
    branch_id: branchIdField,
    context_id: withHintExample(boundedString(130), CONTEXT_ID_EXAMPLE)
      .optional()
      .describe("From get_active_summary or search; default: the branch's context."),
  }),
  output: z.object({
    success: z.boolean(),
    context_id: z.string(),
    content: z.string(),
    content_truncated: z.boolean(),
    metadata: z.object({
      compressed: z.boolean(),
      size_bytes: z.number().int(),
      created_at: z.string(),
      message_count: z.number().int(),
    }),
    message: z.string(),
    untrusted: untrustedOutput,
  }),
  // Restoring writes rows back, but what the context says does not change: a read.
  annotations: MEMORY_READ,
  needs: 'memory',
  run: async (deps, input, { principal }) => {
    const contextId = contextIdOf(input.branch_id);
    if (input.context_id !== undefined && input.context_id !== contextId) {
      throw new DomainError(
        'INVALID_INPUT',
        `context_id "${input.context_id}" is not the context of branch "${input.branch_id}" (that is "${contextId}"); omit it or pass that id.`,
        { field: 'context_id', expected: contextId, example: contextId },
      );
    }
    const { restored, view } = await deps.memory.loadContext(principal, input.project_id, input.branch_id);
    const content = contextText(view.entries, LOAD_CONTENT_CHARS);
    const size = new TextEncoder().encode(view.entries.map((e) => e.content).join('\n')).byteLength;
    return {
      success: true,
      context_id: contextId,
      content: content.text,
      content_truncated: content.truncated,
      metadata: {
        compressed: restored,
        size_bytes: size,
        created_at: view.branch.created_at,
        message_count: view.entries.length,
      },
      message: restored ? 'Decompressed and restored.' : 'Loaded.',
      ...untrustedField(content.untrusted),
    };
  },
});
