import * as z from 'zod';
import { snapshotKeys } from '../../../core/memory/snapshots/snapshot-vault.js';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { storedText } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { MEMORY_WRITE, projectIdField } from './memory-fields.js';

export const createSnapshotTool = defineTool({
  name: 'create_snapshot',
  title: 'Snapshot memory',
  description:
    "Saves an encrypted, verified snapshot of a project's whole memory; restore_snapshot brings it back.",
  input: z.object({
    project_id: projectIdField,
    description: storedText(500).optional().describe('e.g. "Before major refactor".'),
    idempotency_key: idempotencyKeyField,
  }),
  output: z.object({
    success: z.boolean(),
    snapshot_id: z.string(),
    snapshot_path: z.string(),
    size_bytes: z.number().int(),
    verified: z.boolean(),
    message: z.string(),
  }),
  annotations: MEMORY_WRITE,
  needs: 'memorySnapshots',
  idempotencyKey: true,
  run: async (deps, input, { principal }) => {
    const snap = await deps.snapshots.create(principal, input.project_id, { description: input.description });
    return {
      success: snap.verified,
      snapshot_id: snap.snapshot_id,
      snapshot_path: snapshotKeys(input.project_id, snap.snapshot_id).manifest.replace(/manifest$/, ''),
      size_bytes: snap.size_bytes,
      verified: snap.verified,
      message: snap.verified
        ? `Snapshot of ${snap.item_count} records created and verified.`
        : 'Snapshot written but it did not read back intact: do not rely on it; create another.',
    };
  },
});
