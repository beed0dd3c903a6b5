import * as z from 'zod';
import { SNAPSHOT_ID_PATTERN } from '../../../core/memory/snapshots/snapshot-ids.js';
import { withHintExample } from '../../field-hints.js';
import type { ToolAnnotations } from '../../tool-definition.js';

/** Shared input fields and hints of the snapshot and cloud-sync tools. */

/** A snapshot id as create_snapshot makes them (snapshot-ids.ts). */
export const SNAPSHOT_ID_EXAMPLE = 'snap_20261123T221500123_9f86d081';

export const snapshotIdField = withHintExample(z.string(), SNAPSHOT_ID_EXAMPLE)
  .regex(SNAPSHOT_ID_PATTERN, `expected a snapshot id from list_snapshots, e.g. "${SNAPSHOT_ID_EXAMPLE}"`)
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
