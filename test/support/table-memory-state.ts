import { DomainError } from '../../lambdas/core/errors.js';
import type { MemoryRecord, MemoryStateStore } from '../../lambdas/core/memory/memory-records.js';
import { ConditionFailedError, type DocumentStore } from '../../lambdas/core/ports/index.js';
import { queryAll } from '../../lambdas/core/storage/query-all.js';

const INITIAL = 'gen-initial';
const partition = (projectId: string) => `TESTMEM#${projectId}`;
const recordPrefix = (generation: string) => `GEN#${generation}#`;

/**
 * A small, real MemoryStateStore over the DocumentStore, for testing snapshots apart from the
 * memory store itself: a `CURRENT` item names the current generation; records live under
 * `GEN#<generation>#<key>`. Activation is one conditional put on `CURRENT`, as the seam requires.
 * `write` stands in for update_memory: it changes a record of the current generation.
 */
export class TableMemoryState implements MemoryStateStore {
  private staged = 0;

  constructor(private readonly store: DocumentStore) {}

  async current(projectId: string): Promise<string> {
    const pointer = await this.store.get({ pk: partition(projectId), sk: 'CURRENT' }, { consistent: true });
    return typeof pointer?.generation === 'string' ? pointer.generation : INITIAL;
  }

  async exportState(projectId: string): Promise<{ generation: string; records: MemoryRecord[] }> {
    const generation = await this.current(projectId);
    const items = await queryAll(this.store, {
      partition: partition(projectId),
      beginsWith: recordPrefix(generation),
      consistent: true,
    });
    return {
      generation,
      records: items.map((item) => ({ key: String(item.key), body: JSON.parse(String(item.body)) })),
    };
  }

  async stageGeneration(projectId: string, records: readonly MemoryRecord[]): Promise<string> {
    this.staged += 1;
    const generation = `gen-${Date.now()}-${this.staged}-${Math.random().toString(16).slice(2, 10)}`;
    await this.store.batchPut(records.map((record) => this.item(projectId, generation, record)));
    return generation;
  }

  async activateGeneration(projectId: string, generation: string, expectedCurrent: string): Promise<void> {
    try {
      await this.store.put(
        { pk: partition(projectId), sk: 'CURRENT', generation },
        {
          condition:
            expectedCurrent === INITIAL
              ? { op: 'not_exists' }
              : { op: 'eq', attribute: 'generation', value: expectedCurrent },
        },
      );
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      throw new DomainError('CONFLICT', `The memory of ${projectId} changed generation meanwhile.`);
    }
  }

  async discardGeneration(projectId: string, generation: string): Promise<void> {
    if (generation === (await this.current(projectId))) {
      throw new DomainError('CONFLICT', `Generation ${generation} is current; it cannot be discarded.`);
    }
    const items = await queryAll(this.store, {
      partition: partition(projectId),
      beginsWith: recordPrefix(generation),
    });
    for (const item of items) await this.store.delete({ pk: item.pk, sk: item.sk });
  }

  /** Writes one record into the current generation (what update_memory would do). */
  async write(projectId: string, record: MemoryRecord): Promise<void> {
    await this.store.put(this.item(projectId, await this.current(projectId), record));
  }

  private item(projectId: string, generation: string, record: MemoryRecord) {
    return {
      pk: partition(projectId),
      sk: `${recordPrefix(generation)}${record.key}`,
      key: record.key,
      body: JSON.stringify(record.body),
    };
  }
}
