import * as z from 'zod';
import type { DocumentStore } from '../../ports/index.js';
import { PK_PREFIX, SK } from '../../storage/key-prefixes.js';

/**
 * What the last cloud sync of a project left (docs/data-model.md): the remote snapshot it pushed
 * or pulled, that object's version, and the fingerprint of the local memory right after. The
 * next sync compares both sides with it: a remote newer than it means someone else pushed; a
 * local fingerprint that differs means changes not yet pushed.
 */
export const CloudSyncState = z.object({
  remote_snapshot_id: z.string(),
  /** SHA-256 of the stored manifest object: the remote version, as an ETag would be. */
  remote_version: z.string(),
  local_fingerprint: z.string(),
  direction: z.enum(['push', 'pull']),
  synced_at: z.string(),
});
export type CloudSyncState = z.infer<typeof CloudSyncState>;

const stateKey = (projectId: string) => ({
  pk: `${PK_PREFIX.memorySnapshots}${projectId}`,
  sk: SK.memorySnapshots.cloudSync,
});

export async function readCloudSyncState(
  store: DocumentStore,
  projectId: string,
): Promise<CloudSyncState | undefined> {
  const raw = await store.get(stateKey(projectId), { consistent: true });
  return raw ? CloudSyncState.parse(raw) : undefined;
}

export async function recordCloudSync(
  store: DocumentStore,
  projectId: string,
  state: CloudSyncState,
): Promise<void> {
  await store.put({ ...stateKey(projectId), ...CloudSyncState.parse(state) });
}
