import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { projectIdField } from './memory-fields.js';
import { forceField } from './snapshot-fields.js';

export const syncToCloudTool = defineTool({
  name: 'sync_to_cloud',
  title: 'Push memory to cloud',
  description:
    "Uploads a project's memory, encrypted before upload, to the organisation's bucket. CONFLICT if another " +
    'server pushed since: sync_from_cloud first, or force. NOT_CONFIGURED: this server has no bucket. 100 a day.',
  input: z.object({ project_id: projectIdField, force: forceField }),
  output: z.object({
    success: z.boolean(),
    status: z.enum(['uploaded', 'up_to_date']),
    uploaded_bytes: z.number().int(),
    encrypted: z.boolean(),
    cloud_path: z.string(),
    snapshot_id: z.string(),
    remote_version: z.string(),
    message: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  needs: 'memorySnapshots',
  run: async (deps, input, { principal }) => {
    const pushed = await deps.snapshots.syncToCloud(principal, input.project_id, { force: input.force });
    return {
      success: true,
      ...pushed,
      encrypted: true,
      message: pushed.status === 'uploaded' ? 'Uploaded.' : 'Nothing changed since the last sync.',
    };
  },
});
