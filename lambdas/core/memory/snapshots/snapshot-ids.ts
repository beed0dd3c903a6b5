import type { Clock, RandomSource } from '../../ports/index.js';

/**
 * A new snapshot id: `snap_<UTC yyyymmddThhmmssSSS>_<8 hex>`. Ids sort by creation time, so the
 * catalog and a bucket listing both find the newest by order alone; the random tail keeps two
 * snapshots of one millisecond (two machines pushing) apart.
 *
 * @example
 * newSnapshotId(clock, random); // 'snap_20261123T221500123_9f86d081'
 */
export function newSnapshotId(clock: Clock, random: RandomSource): string {
  const stamp = clock
    .now()
    .toISOString()
    .replace(/[-:.Z]/g, '');
  const tail = Buffer.from(random.bytes(4)).toString('hex');
  return `snap_${stamp}_${tail}`;
}

/** What a snapshot id looks like, for input validation. */
export const SNAPSHOT_ID_PATTERN = /^snap_\d{8}T\d{9}_[0-9a-f]{8}$/;
