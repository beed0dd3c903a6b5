import type { Principal, Right } from '../../access/rights.js';
import { DomainError } from '../../errors.js';
import type { CloudTarget } from '../../ports/index.js';
import { type CloudSyncDeps, reportingNetworkErrors } from './cloud-target.js';
import { type CreateSnapshotOptions, createSnapshot } from './create-snapshot.js';
import { type RestorePhase, restoreSnapshot } from './restore-snapshot.js';
import { SnapshotCatalog, type SnapshotEntry } from './snapshot-catalog.js';
import type { SnapshotDeps } from './snapshot-deps.js';
import { syncFromCloud } from './sync-from-cloud.js';
import { DEFAULT_SYNC_QUOTAS, type SyncQuotas } from './sync-quota.js';
import { type SyncOptions, syncToCloud } from './sync-to-cloud.js';

export interface MemorySnapshotsDeps extends SnapshotDeps {
  /** The project grant check (MemoryService.authorize): FORBIDDEN / PROJECT_NOT_FOUND. */
  authorize(principal: Principal, projectId: string, right: Right): Promise<void>;
  /** The organisation's sync bucket, where configured. @default - none: sync tools say so */
  cloud?: CloudTarget | undefined;
  /** @default 100 uploads and 20 downloads a day per project */
  quotas?: SyncQuotas | undefined;
}

/**
 * Snapshots, restore and cloud sync of a project's memory for one principal at a time: read on
 * the project to list, write to create, restore or sync. What the five tools and the CLI call.
 */
export class MemorySnapshots {
  constructor(private readonly deps: MemorySnapshotsDeps) {}

  async create(principal: Principal, projectId: string, options: CreateSnapshotOptions = {}) {
    await this.deps.authorize(principal, projectId, 'write');
    return createSnapshot(this.deps, projectId, options);
  }

  async list(principal: Principal, projectId: string): Promise<SnapshotEntry[]> {
    await this.deps.authorize(principal, projectId, 'read');
    return new SnapshotCatalog(this.deps.store).list(projectId);
  }

  async restore(
    principal: Principal,
    projectId: string,
    snapshotId: string,
    options: { onPhase?: ((phase: RestorePhase) => void) | undefined } = {},
  ) {
    await this.deps.authorize(principal, projectId, 'write');
    return restoreSnapshot(this.deps, projectId, snapshotId, options);
  }

  async syncToCloud(principal: Principal, projectId: string, options: SyncOptions = {}) {
    await this.deps.authorize(principal, projectId, 'write');
    return syncToCloud(this.cloudDeps(), projectId, options);
  }

  async syncFromCloud(principal: Principal, projectId: string, options: SyncOptions = {}) {
    await this.deps.authorize(principal, projectId, 'write');
    return syncFromCloud(this.cloudDeps(), projectId, options);
  }

  private cloudDeps(): CloudSyncDeps {
    if (!this.deps.cloud) {
      throw new DomainError(
        'NOT_CONFIGURED',
        'Cloud sync is not configured on this Meridian: no bucket is set. Its operator sets ' +
          'MERIDIAN_MEMORY_SYNC_BUCKET and one of MERIDIAN_MEMORY_SYNC_KMS_KEY_ARN or MERIDIAN_MEMORY_SYNC_KEY_FILE ' +
          '(on AWS: cdk deploy -c memorySyncBucket=… -c memorySyncKeyArn=…), then restarts it. Until then ' +
          'create_snapshot and restore_snapshot keep memory safe on this server.',
      );
    }
    return {
      ...this.deps,
      cloud: reportingNetworkErrors(this.deps.cloud),
      quotas: this.deps.quotas ?? DEFAULT_SYNC_QUOTAS,
    };
  }
}
