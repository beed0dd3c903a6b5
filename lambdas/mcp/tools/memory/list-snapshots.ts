import { z } from 'zod';
import { DomainError } from '../../../core/errors.js';
import { withHintExample } from '../../field-hints.js';
import { boundedString, outputFormat } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { MEMORY_READ, projectIdField } from './memory-fields.js';

/** Snapshots per page: a project that syncs often collects hundreds (a backup before each pull). */
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

export const listSnapshotsTool = defineTool({
  name: 'list_snapshots',
  title: 'List memory snapshots',
  description:
    "A project's memory snapshots, newest first; automatic ones were saved before a restore or pull. Paged: pass next_cursor for more.",
  input: z.object({
    project_id: projectIdField,
    limit: z.number().int().min(1).max(MAX_PAGE).optional().describe(`Per page; default ${DEFAULT_PAGE}.`),
    cursor: withHintExample(boundedString(64), 'snap_20261123T221500123_9f86d081')
      .optional()
      .describe('next_cursor of the previous page.'),
    format: outputFormat,
  }),
  output: z.object({
    success: z.boolean(),
    snapshots: z.array(
      z.object({
        snapshot_id: z.string(),
        created_at: z.string(),
        description: z.string().optional(),
        size_bytes: z.number().int(),
        verified: z.boolean(),
        automatic: z.boolean(),
      }),
    ),
    total_snapshots: z.number().int(),
    next_cursor: z.string().optional(),
  }),
  annotations: MEMORY_READ,
  needs: 'memory',
  run: async (deps, input, { principal }) => {
    const all = await deps.snapshots.list(principal, input.project_id);
    const from = input.cursor === undefined ? 0 : all.findIndex((s) => s.snapshot_id === input.cursor) + 1;
    if (from === 0 && input.cursor !== undefined) {
      throw new DomainError(
        'INVALID_INPUT',
        `Project ${input.project_id} has no snapshot ${input.cursor}: pass the next_cursor list_snapshots answered, or no cursor for the newest.`,
        { field: 'cursor' },
      );
    }
    const page = all.slice(from, from + (input.limit ?? DEFAULT_PAGE));
    const last = page.at(-1);
    return {
      success: true,
      snapshots: page.map((s) => ({
        snapshot_id: s.snapshot_id,
        created_at: s.created_at,
        ...(s.description === undefined ? {} : { description: s.description }),
        size_bytes: s.size_bytes,
        verified: s.verified,
        automatic: s.automatic,
      })),
      total_snapshots: all.length,
      ...(last && from + page.length < all.length ? { next_cursor: last.snapshot_id } : {}),
    };
  },
});
