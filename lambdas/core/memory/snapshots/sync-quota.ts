import { compareAndSet } from '../../compare-and-set.js';
import { DomainError } from '../../errors.js';
import type { DocumentStore } from '../../ports/index.js';
import { PK_PREFIX, SK } from '../../storage/key-prefixes.js';

/** The reference's allowances: 100 uploads and 20 downloads per project per UTC day. */
export type SyncQuotas = { uploadsPerDay: number; downloadsPerDay: number };
export const DEFAULT_SYNC_QUOTAS: SyncQuotas = { uploadsPerDay: 100, downloadsPerDay: 20 };

const DAY_SECONDS = 86_400;
const ATTEMPTS = 5;

/**
 * Counts one upload or download of the project's day, refusing with QUOTA_EXCEEDED once the
 * day's allowance is used. The counter is a conditional put on the count read, so concurrent
 * syncs cannot both take the last one.
 */
export async function spendSyncQuota(
  store: DocumentStore,
  projectId: string,
  direction: 'upload' | 'download',
  limit: number,
  now: Date,
): Promise<{ used: number; limit: number }> {
  const day = now.toISOString().slice(0, 10);
  const key = {
    pk: `${PK_PREFIX.memorySnapshots}${projectId}`,
    sk: `${SK.memorySnapshots.quotaPrefix}${day}#${direction}`,
  };
  return compareAndSet(
    async () => {
      const current = await store.get(key, { consistent: true });
      const used = typeof current?.count === 'number' ? current.count : 0;
      if (used >= limit) {
        throw new DomainError(
          'QUOTA_EXCEEDED',
          `This project used its ${limit} cloud ${direction}s for ${day} (UTC); try again after midnight UTC.`,
          { direction, limit, day },
        );
      }
      await store.put(
        { ...key, count: used + 1, ttl: Math.floor(now.getTime() / 1000) + 2 * DAY_SECONDS },
        { condition: current ? { op: 'eq', attribute: 'count', value: used } : { op: 'not_exists' } },
      );
      return { used: used + 1, limit };
    },
    {
      maxAttempts: ATTEMPTS,
      exhausted: () =>
        new DomainError('CONFLICT', `Too many concurrent cloud ${direction}s of this project; retry.`),
    },
  );
}
