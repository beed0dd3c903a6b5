import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { projectIdField } from './memory-fields.js';
import { forceField, MEMORY_REPLACE } from './snapshot-fields.js';

export const syncFromCloudTool = defineTool({
  name: 'sync_from_cloud',
  title: 'Pull memory from cloud',
  description:
    "Restores a project's newest memory from the organisation's bucket (verified; current memory kept as a " +
    'snapshot). CONFLICT if local changes were not pushed: sync_to_cloud first, or force. 20 a day.',
  input: z.object({ project_id: projectIdField, force: forceField }),
  output: z.object({
    success: z.boolean(),
    status: z.enum(['restored', 'up_to_date']),
    downloaded_bytes: z.number().int(),
    decrypted: z.boolean(),
    restored_contexts: z.number().int(),
    restored_branches: z.number().int(),
    restored_items: z.number().int(),
    snapshot_id: z.string(),
    remote_version: z.string(),
    backup_snapshot_id: z.string().optional(),
    message: z.string(),
  }),
  annotations: { ...MEMORY_REPLACE, openWorldHint: true },
  needs: 'memorySnapshots',
  run: async (deps, input, { principal }) => {
    const { cloud_path: _path, ...pulled } = await deps.snapshots.syncFromCloud(principal, input.project_id, {
      force: input.force,
    });
    return {
      success: true,
      ...pulled,
      decrypted: pulled.status === 'restored',
      message: pulled.status === 'restored' ? 'Restored from the cloud.' : 'Already up to date.',
    };
  },
});
