import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { projectIdField } from './memory-fields.js';
import { MEMORY_REPLACE, snapshotIdField } from './snapshot-fields.js';

export const restoreSnapshotTool = defineTool({
  name: 'restore_snapshot',
  title: 'Restore memory snapshot',
  description:
    "Replaces a project's memory with a snapshot, verified first (INTEGRITY_FAILED: nothing changed). The current " +
    'memory is kept in a snapshot (a new automatic one unless one holds it already); restore backup_snapshot_id to undo.',
  input: z.object({ project_id: projectIdField, snapshot_id: snapshotIdField }),
  output: z.object({
    success: z.boolean(),
    restored_contexts: z.number().int(),
    restored_branches: z.number().int(),
    restored_items: z.number().int(),
    backup_snapshot_id: z.string(),
    verified: z.boolean(),
    message: z.string(),
  }),
  annotations: MEMORY_REPLACE,
  needs: 'memorySnapshots',
  run: async (deps, input, { principal }) => {
    const restored = await deps.snapshots.restore(principal, input.project_id, input.snapshot_id);
    return {
      success: true,
      restored_contexts: restored.restored_contexts,
      restored_branches: restored.restored_branches,
      restored_items: restored.restored_items,
      backup_snapshot_id: restored.backup_snapshot_id,
      verified: restored.verified,
      message: 'Snapshot restored and verified.',
    };
  },
});
