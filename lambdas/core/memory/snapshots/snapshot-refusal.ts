import { DomainError } from '../../errors.js';
import type { SnapshotIntegrityError } from './snapshot-manifest.js';

/**
 * What a restore or a pull answers for a snapshot it refused, with nothing changed: one a newer
 * Meridian wrote is UNSUPPORTED_FORMAT (upgrade to restore it; it is intact, since it decrypted),
 * anything else INTEGRITY_FAILED (damaged, tampered with, or not the snapshot asked for).
 *
 * @example
 * throw snapshotRefusal({ snapshotId: 'snap_1' }, error, 'Restore another snapshot (list_snapshots).');
 */
export function snapshotRefusal(
  snapshot: { snapshotId: string; where?: string },
  error: SnapshotIntegrityError,
  /** What to do instead when it is damaged. */
  instead: string,
): DomainError {
  const named = `Snapshot ${snapshot.snapshotId}${snapshot.where === undefined ? '' : ` in ${snapshot.where}`}`;
  const details = { snapshot_id: snapshot.snapshotId, reason: error.reason };
  if (error.reason === 'FORMAT_UNSUPPORTED') {
    return new DomainError(
      'UNSUPPORTED_FORMAT',
      `${named} was written by a newer version of Meridian (${error.message}): nothing was restored. ` +
        'Upgrade this Meridian to restore it.',
      details,
      { cause: error },
    );
  }
  return new DomainError(
    'INTEGRITY_FAILED',
    `${named} failed its integrity check (${error.reason}): nothing was restored. ${instead}`,
    details,
    { cause: error },
  );
}
