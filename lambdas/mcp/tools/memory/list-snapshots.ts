import { z } from 'zod';
import { outputFormat } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { MEMORY_READ, projectIdField } from './memory-fields.js';

export const listSnapshotsTool = defineTool({
  name: 'list_snapshots',
  title: 'List memory snapshots',
  description:
    "A project's memory snapshots, newest first; automatic ones were saved before a restore or pull.",
  input: z.object({ project_id: projectIdField, format: outputFormat }),
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
  }),
  annotations: MEMORY_READ,
  needs: 'memory',
  run: async (deps, input, { principal }) => {
    const snapshots = await deps.snapshots.list(principal, input.project_id);
    return {
      success: true,
      snapshots: snapshots.map((s) => ({
        snapshot_id: s.snapshot_id,
        created_at: s.created_at,
        ...(s.description === undefined ? {} : { description: s.description }),
        size_bytes: s.size_bytes,
        verified: s.verified,
        automatic: s.automatic,
      })),
      total_snapshots: snapshots.length,
    };
  },
});
