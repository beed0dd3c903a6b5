import * as z from 'zod';
import type { DocumentStore } from '../../ports/index.js';
import { PK_PREFIX, SK } from '../../storage/key-prefixes.js';
import { queryAll } from '../../storage/query-all.js';

/**
 * The table's list of a project's snapshots (docs/data-model.md): what list_snapshots shows and
 * where the hash chain continues, without decrypting every manifest in the blob store. An entry
 * is written only after its snapshot's objects were stored, so every entry names a complete one.
 */
export const SnapshotEntry = z.object({
  snapshot_id: z.string(),
  created_at: z.string(),
  description: z.string().optional(),
  /** Saved by a restore or a pull before it replaced the state, not asked for by anyone. */
  automatic: z.boolean(),
  size_bytes: z.number().int().nonnegative(),
  item_count: z.number().int().nonnegative(),
  /** The SHA-256 of the manifest's plaintext: restore refuses any other manifest. */
  manifest_sha256: z.string(),
  /** True once the stored objects were read back, decrypted and every hash checked. */
  verified: z.boolean(),
});
export type SnapshotEntry = z.infer<typeof SnapshotEntry>;

/** That the memory at one generation and revision holds exactly one snapshot's items. */
const StateHeld = z.object({ generation: z.string(), revision: z.string(), snapshot_id: z.string() });
export type StateHeld = z.infer<typeof StateHeld>;

const partition = (projectId: string) => `${PK_PREFIX.memorySnapshots}${projectId}`;
const heldKey = (projectId: string) => ({ pk: partition(projectId), sk: SK.memorySnapshots.stateHeldBy });
const entryKey = (projectId: string, snapshotId: string) => ({
  pk: partition(projectId),
  sk: `${SK.memorySnapshots.snapshotPrefix}${snapshotId}`,
});

export class SnapshotCatalog {
  constructor(private readonly store: DocumentStore) {}

  /** Records a stored snapshot; the id is new, so an existing entry means a bug, not a race. */
  async add(projectId: string, entry: SnapshotEntry): Promise<void> {
    await this.store.put(
      { ...entryKey(projectId, entry.snapshot_id), ...SnapshotEntry.parse(entry) },
      { condition: { op: 'not_exists' } },
    );
  }

  async find(projectId: string, snapshotId: string): Promise<SnapshotEntry | undefined> {
    const raw = await this.store.get(entryKey(projectId, snapshotId), { consistent: true });
    return raw ? SnapshotEntry.parse(raw) : undefined;
  }

  /** Every snapshot of the project, newest first (ids sort by creation time). */
  async list(projectId: string): Promise<SnapshotEntry[]> {
    const items = await queryAll(this.store, {
      partition: partition(projectId),
      beginsWith: SK.memorySnapshots.snapshotPrefix,
      descending: true,
      consistent: true,
    });
    return items.map((item) => SnapshotEntry.parse(item));
  }

  /**
   * Notes that the memory at `held.generation` / `held.revision` is exactly snapshot
   * `held.snapshot_id`: after a snapshot is made of it, or after a restore activated it. One note
   * per project, the latest; any write moves the revision, so an older state never matches again.
   * Best effort, never thrown: the note only spares a later restore its backup, and a snapshot or
   * restore that succeeded must not fail for want of it.
   */
  async noteStateHeld(projectId: string, held: StateHeld): Promise<void> {
    try {
      await this.store.put({ ...heldKey(projectId), ...StateHeld.parse(held) });
    } catch {
      // The next restore takes a new backup instead.
    }
  }

  /** The verified snapshot that holds the memory at this generation and revision, if one is known. */
  async snapshotHolding(
    projectId: string,
    state: { generation: string; revision: string },
  ): Promise<SnapshotEntry | undefined> {
    const raw = await this.store.get(heldKey(projectId), { consistent: true });
    const held = raw ? StateHeld.safeParse(raw) : undefined;
    if (!held?.success || held.data.generation !== state.generation || held.data.revision !== state.revision)
      return undefined;
    const entry = await this.find(projectId, held.data.snapshot_id);
    return entry?.verified ? entry : undefined;
  }

  /** The newest snapshot, whose manifest the next one chains to. */
  async latest(projectId: string): Promise<SnapshotEntry | undefined> {
    const page = await this.store.query({
      partition: partition(projectId),
      beginsWith: SK.memorySnapshots.snapshotPrefix,
      descending: true,
      consistent: true,
      limit: 1,
    });
    return page.items[0] ? SnapshotEntry.parse(page.items[0]) : undefined;
  }
}
