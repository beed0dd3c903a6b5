import { mapWithConcurrency } from '../../concurrency.js';
import { DomainError } from '../../errors.js';
import {
  type BlobStore,
  type Clock,
  type Condition,
  ConditionFailedError,
  type DocumentStore,
  type RandomSource,
  type StoredItem,
} from '../../ports/index.js';
import { queryAll } from '../../storage/query-all.js';
import { markForDrop } from '../contexts/generation-drops.js';
import { blobKeysOf, inlineBodies, offloadBodies } from './memory-bodies.js';
import {
  generationPrefix,
  INITIAL_GENERATION,
  idleIndexAttributes,
  memoryPartition,
  pointerKey,
  recordItemKey,
} from './memory-keys.js';
import {
  type ExpectedState,
  type ExportedState,
  MemoryChangedError,
  type MemoryRecord,
  type MemoryStateStore,
} from './memory-records.js';
import { Pointer } from './memory-schemas.js';

export interface MemoryStorageDeps {
  store: DocumentStore;
  blobs: BlobStore;
  clock: Clock;
  random: RandomSource;
}

type Row = Record<string, unknown>;

/** The revision of a memory nothing was ever written to (no pointer row). */
const INITIAL_REVISION = '0';

/**
 * Blob writes (staging) and deletes (discarding) a generation keeps in flight: each is a request
 * to S3 on AWS, tens of milliseconds apart when sent one after another.
 */
const BLOB_REQUESTS_AT_ONCE = 16;

/** What {@link MemoryGenerations.revision} answers for a pointer: generation and revision in one token. */
export function revisionToken(pointer: Pick<Pointer, 'generation' | 'revision'>): string {
  return `${pointer.generation}:${pointer.revision}`;
}

/**
 * The generation layer under a project's memory. Every record lives under the generation the
 * pointer row names; a restore stages a whole new generation that nothing reads and then makes it
 * current with one conditional put of the pointer, so readers see the old state or the new one,
 * never a mix. Every other write re-puts the pointer with a fresh revision token, conditional on
 * the generation it wrote into: a write that raced a restore fails (CONFLICT) instead of landing
 * in a discarded generation unnoticed, and caches keyed by the revision see every change.
 */
export class MemoryGenerations implements MemoryStateStore {
  constructor(private readonly deps: MemoryStorageDeps) {}

  /** The pointer, or the initial generation's when nothing was ever written. */
  async pointer(projectId: string): Promise<Pointer> {
    const raw = await this.deps.store.get(pointerKey(projectId), { consistent: true });
    return raw
      ? Pointer.parse(raw)
      : { generation: INITIAL_GENERATION, revision: INITIAL_REVISION, updated_at: '' };
  }

  async currentState(projectId: string): Promise<Required<ExpectedState>> {
    const { generation, revision } = await this.pointer(projectId);
    return { generation, revision };
  }

  /** Opaque; changes whenever anything in the project's memory changes. */
  async revision(projectId: string): Promise<string> {
    return revisionToken(await this.pointer(projectId));
  }

  /**
   * Records a change made in `generation`: a new revision token, if that generation is still
   * current. Called after every write, so a reader that read the revision before a write sees
   * it change.
   */
  async touch(projectId: string, generation: string): Promise<void> {
    try {
      await this.putPointer(projectId, generation, { generation });
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      throw new DomainError(
        'CONFLICT',
        `The memory of project "${projectId}" was restored while this change was being written, so the change ` +
          'was not kept. Read the restored state (get_active_summary) and repeat the change if it still applies.',
        { project_id: projectId },
      );
    }
  }

  /**
   * {@link touch}, conditional on `seen` (a state a reader cached) when one is given and in
   * `generation`: answers the new state when the pointer was still at `seen`, so no write came
   * in between and the cache plus this write is the new state; undefined after a plain touch.
   * A write that lands its record but dies before its own touch stays out of such a cache until
   * the next change, as a call that never answered.
   */
  async touchFrom(
    projectId: string,
    generation: string,
    seen: Required<ExpectedState> | undefined,
  ): Promise<Required<ExpectedState> | undefined> {
    if (seen?.generation === generation) {
      try {
        return { generation, revision: await this.putPointer(projectId, generation, seen) };
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    }
    await this.touch(projectId, generation);
    return undefined;
  }

  /**
   * Takes the project out of the idle sweep's index: the pointer `seen` put back as it was, without
   * the index attributes, if nothing was written since it was read (generation and revision
   * unchanged). The revision stays, as nothing in the memory changed. Answers false when a write
   * came first: that write keeps the project in the index.
   */
  async leaveIdleIndex(projectId: string, seen: Pointer): Promise<boolean> {
    try {
      await this.deps.store.put(
        { ...pointerKey(projectId), ...seen },
        {
          condition: {
            op: 'and',
            conditions: [
              { op: 'eq', attribute: 'generation', value: seen.generation },
              { op: 'eq', attribute: 'revision', value: seen.revision },
            ],
          },
        },
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  }

  /** One record of a generation, bodies inlined; undefined when absent. */
  async getRecord(projectId: string, generation: string, recordKey: string): Promise<Row | undefined> {
    const raw = await this.deps.store.get(recordItemKey(projectId, generation, recordKey), {
      consistent: true,
    });
    return raw ? inlineBodies(this.deps.blobs, raw) : undefined;
  }

  /** Every record of a generation whose key starts with `prefix`, in key order, bodies inlined. */
  async queryRecords(projectId: string, generation: string, prefix: string): Promise<Row[]> {
    const rows = await queryAll(this.deps.store, {
      partition: memoryPartition(projectId),
      beginsWith: `${generationPrefix(generation)}${prefix}`,
      consistent: true,
    });
    return Promise.all(rows.map((row) => inlineBodies(this.deps.blobs, row)));
  }

  /**
   * Writes a record (large bodies to the blob store first). A failed condition surfaces as
   * ConditionFailedError and leaves no blob behind.
   */
  async putRecord(
    projectId: string,
    generation: string,
    recordKey: string,
    body: Row,
    condition?: Condition,
  ): Promise<void> {
    const { row, written } = await offloadBodies(this.deps, projectId, body);
    try {
      await this.deps.store.put(
        { ...row, ...recordItemKey(projectId, generation, recordKey) },
        condition ? { condition } : {},
      );
    } catch (error) {
      await Promise.all(written.map((key) => this.deps.blobs.delete(key)));
      throw error;
    }
  }

  /** Deletes a record (and the blobs it referenced, once the row is gone). */
  async deleteRecord(
    projectId: string,
    generation: string,
    recordKey: string,
    condition?: Condition,
  ): Promise<void> {
    const key = recordItemKey(projectId, generation, recordKey);
    const raw = await this.deps.store.get(key, { consistent: true });
    if (!raw) return;
    await this.deps.store.delete(key, condition ? { condition } : {});
    await Promise.all(blobKeysOf(raw).map((blobKey) => this.deps.blobs.delete(blobKey)));
  }

  async exportState(projectId: string): Promise<ExportedState> {
    // The pointer first: a write that lands after the records were read moves this revision.
    const { generation, revision } = await this.pointer(projectId);
    const prefix = generationPrefix(generation);
    const rows = await this.queryRecords(projectId, generation, '');
    // Bodies travel inline: a record is whole without the blob store it came from.
    const records = rows.map(({ pk: _pk, sk, blobs: _blobs, ...body }) => ({
      key: (sk as string).slice(prefix.length),
      body,
    }));
    return { generation, revision, records };
  }

  async stageGeneration(projectId: string, records: readonly MemoryRecord[]): Promise<string> {
    const generation = this.newGeneration();
    // Marked before its first row, with the generation it is meant to replace: the sweep drops
    // whichever of the two is not current an hour from now (generation-drops.ts).
    const { generation: current } = await this.pointer(projectId);
    await markForDrop(this.deps.store, this.deps.clock, projectId, [generation, current]);
    // Large bodies go to new blobs first, several at a time; rows, in batches, after.
    const items: StoredItem[] = await mapWithConcurrency(records, BLOB_REQUESTS_AT_ONCE, async (record) => {
      const { row } = await offloadBodies(this.deps, projectId, record.body as Row);
      return { ...row, ...recordItemKey(projectId, generation, record.key) };
    });
    await this.deps.store.batchPut(items);
    return generation;
  }

  async activateGeneration(projectId: string, generation: string, expected: ExpectedState): Promise<string> {
    try {
      return await this.putPointer(projectId, generation, expected);
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      const current = await this.pointer(projectId);
      if (current.generation === expected.generation) throw new MemoryChangedError(projectId);
      throw new DomainError(
        'CONFLICT',
        `The memory of project "${projectId}" is no longer at generation "${expected.generation}": another restore ` +
          'finished first. Export the current state again and retry.',
        { project_id: projectId, expected_generation: expected.generation },
      );
    }
  }

  async discardGeneration(projectId: string, generation: string): Promise<void> {
    if ((await this.pointer(projectId)).generation === generation) {
      throw new DomainError(
        'CONFLICT',
        `Generation "${generation}" is the current memory of project "${projectId}"; only other generations can be discarded.`,
        { project_id: projectId, generation },
      );
    }
    const rows = await queryAll(this.deps.store, {
      partition: memoryPartition(projectId),
      beginsWith: generationPrefix(generation),
      consistent: true,
    });
    // Rows in batches: one delete per row made a restore of a few thousand entries take seconds.
    await this.deps.store.batchDelete(rows.map((row) => ({ pk: row.pk, sk: row.sk })));
    const blobKeys = rows.flatMap(blobKeysOf);
    await mapWithConcurrency(blobKeys, BLOB_REQUESTS_AT_ONCE, (key) => this.deps.blobs.delete(key));
  }

  /** Writes the pointer naming `generation` if the current one is still `expected`; answers its revision. */
  private async putPointer(projectId: string, generation: string, expected: ExpectedState): Promise<string> {
    const conditions: Condition[] = [{ op: 'eq', attribute: 'generation', value: expected.generation }];
    if (expected.revision !== undefined) {
      conditions.push({ op: 'eq', attribute: 'revision', value: expected.revision });
    }
    const isExpected: Condition = conditions.length === 1 ? conditions[0]! : { op: 'and', conditions };
    const pointer: Pointer = {
      generation,
      revision: this.token(),
      updated_at: this.deps.clock.now().toISOString(),
    };
    // Every write may leave a context to compress: the pointer joins the idle sweep's index.
    const item = { ...pointerKey(projectId), ...pointer, ...idleIndexAttributes(pointer.updated_at) };
    try {
      await this.deps.store.put(item, { condition: isExpected });
    } catch (error) {
      // Before the first write there is no pointer row: the initial generation (revision '0') is
      // implied. Tried second, not as `not_exists OR expected` on every write, because an `or`
      // condition makes dynalite's put about 1.6× slower, and only a project's first write needs it.
      const unwritten =
        expected.generation === INITIAL_GENERATION &&
        (expected.revision ?? INITIAL_REVISION) === INITIAL_REVISION;
      if (!(error instanceof ConditionFailedError) || !unwritten) throw error;
      await this.deps.store.put(item, {
        condition: { op: 'or', conditions: [{ op: 'not_exists' }, isExpected] },
      });
    }
    return pointer.revision;
  }

  /** A time-ordered id: sorts by creation, unique by its random tail. */
  timeOrderedId(prefix: string): string {
    const ms = this.deps.clock.now().getTime().toString(36).padStart(9, '0');
    return `${prefix}${ms}${this.token()}`;
  }

  private newGeneration(): string {
    return this.timeOrderedId('g');
  }

  private token(): string {
    return Buffer.from(this.deps.random.bytes(6)).toString('hex');
  }
}
