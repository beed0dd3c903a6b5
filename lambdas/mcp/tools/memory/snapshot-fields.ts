import { z } from 'zod';
import { SNAPSHOT_ID_PATTERN } from '../../../core/memory/snapshots/snapshot-ids.js';
import { withHintExample } from '../../field-hints.js';
import type { ToolAnnotations } from '../../tool-definition.js';

/** Shared input fields and hints of the snapshot and cloud-sync tools. */

export const snapshotIdField = withHintExample(z.string(), 'snap_20261123T221500123_9f86d081')
  .regex(
    SNAPSHOT_ID_PATTERN,
    'expected a snapshot id from list_snapshots, e.g. "snap_20261123T221500123_9f86d081"',
  )
  .describe('From list_snapshots.');

export const forceField = z
  .boolean()
  .optional()
  .describe('Overwrite changes the other side made since the last sync.');

/** Replaces the project's memory (an automatic snapshot keeps the old one). */
export const MEMORY_REPLACE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};
