import * as z from 'zod';
import { outputFormat } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { pageAfter, pageCursorField, pageLimitField } from './list-paging.js';
import { MEMORY_READ, projectIdField } from './memory-fields.js';
import { SNAPSHOT_ID_EXAMPLE } from './snapshot-fields.js';

export const listSnapshotsTool = defineTool({
  name: 'list_snapshots',
  title: 'List memory snapshots',
  description:
    "A project's memory snapshots, newest first; automatic ones were saved before a restore or pull. Paged: pass next_cursor for more.",
  input: z.object({
    project_id: projectIdField,
    limit: pageLimitField,
    cursor: pageCursorField(SNAPSHOT_ID_EXAMPLE),
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
  needs: 'memorySnapshots',
  run: async (deps, input, { principal }) => {
    const all = await deps.snapshots.list(principal, input.project_id);
    const { page, next_cursor } = pageAfter(all, (s) => s.snapshot_id, {
      ...input,
      list: `the snapshots of project ${input.project_id}`,
    });
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
      ...(next_cursor === undefined ? {} : { next_cursor }),
    };
  },
});
