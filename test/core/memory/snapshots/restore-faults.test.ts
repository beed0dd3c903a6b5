import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnapshot } from '../../../../lambdas/core/memory/snapshots/create-snapshot.js';
import { memoryFingerprint } from '../../../../lambdas/core/memory/snapshots/memory-fingerprint.js';
import {
  restoreSnapshot,
  verifiedSnapshot,
} from '../../../../lambdas/core/memory/snapshots/restore-snapshot.js';
import type { SnapshotDeps } from '../../../../lambdas/core/memory/snapshots/snapshot-deps.js';
import { FaultInjector, type FaultMode } from '../../../support/fault-injection.js';
import { type SnapshotWorld, seedMemory, startSnapshotWorld } from './snapshot-harness.js';

/** Every port a restore touches, behind one injector that counts (and breaks) their calls. */
function faultyDeps(deps: SnapshotDeps, injector: FaultInjector): SnapshotDeps {
  return {
    ...deps,
    state: injector.wrap('state', deps.state),
    blobs: injector.wrap('blobs', deps.blobs),
    encryption: injector.wrap('encryption', deps.encryption),
    store: injector.wrap('store', deps.store),
  };
}

describe('restoreSnapshot under a fault at each step (old or new state, never a mix)', () => {
  let world: SnapshotWorld;
  let project = 0;

  beforeAll(async () => {
    world = await startSnapshotWorld();
  });
  afterAll(async () => {
    await world.close();
  });

  /** A project whose snapshot holds state A and whose current state is B (blobs in both). */
  async function prepared() {
    const projectId = `prj_fault${++project}`;
    const a = await seedMemory(world, projectId, `a${project}`);
    const snap = await createSnapshot(world.deps, projectId);
    const fingerprint = async () => memoryFingerprint((await world.memory.exportState(projectId)).records);
    const fresh = await fingerprint();
    await world.memory.write(projectId, {
      key: 'ENT#main#b',
      body: { entry_id: 'b', content: 'written after' },
    });
    await world.memory.write(projectId, {
      key: a[0]!.key,
      body: { branch_id: 'main', topic: 'renamed', created_at: '2026-11-23T20:00:00Z', version: 2 },
    });
    return { projectId, snap, old: await fingerprint(), fresh, fingerprint };
  }

  it('counts the steps of a restore that meets no fault', async () => {
    const { projectId, snap, fresh, fingerprint } = await prepared();
    const injector = new FaultInjector();
    await restoreSnapshot(faultyDeps(world.deps, injector), projectId, snap.snapshot_id);
    expect(await fingerprint()).toBe(fresh);
    expect(injector.trace).toContain('state.activateGeneration');
    expect(injector.steps).toBeGreaterThan(10);
  });

  for (const mode of ['fail', 'crash'] as FaultMode[]) {
    it(`leaves the old or the new state when step N ${mode === 'fail' ? 'fails' : 'crashes the process'}, for every N`, async () => {
      const probe = await prepared();
      const counter = new FaultInjector();
      await restoreSnapshot(faultyDeps(world.deps, counter), probe.projectId, probe.snap.snapshot_id);
      const outcomes: { step: number; call: string; state: 'old' | 'new'; succeeded: boolean }[] = [];

      for (let step = 1; step <= counter.steps; step += 1) {
        const { projectId, snap, old, fresh, fingerprint } = await prepared();
        const injector = new FaultInjector(step, mode);
        const succeeded = await restoreSnapshot(
          faultyDeps(world.deps, injector),
          projectId,
          snap.snapshot_id,
        ).then(
          () => true,
          () => false,
        );
        const now = await fingerprint();
        expect([old, fresh], `step ${step} (${injector.trace[step - 1]}) left a mixed state`).toContain(now);
        outcomes.push({
          step,
          call: injector.trace[step - 1] ?? '',
          state: now === fresh ? 'new' : 'old',
          succeeded,
        });
      }

      // A restore that reported success left the new state; one that reported failure before
      // activating left the old one; and the run saw both outcomes, so the check could fail.
      // (A fault in a write that only spares a later backup is survived: the restore succeeds.)
      for (const outcome of outcomes) if (outcome.succeeded) expect(outcome.state).toBe('new');
      const activation = counter.trace.indexOf('state.activateGeneration') + 1;
      const beforeActivation = outcomes.filter((o) => o.step <= activation);
      for (const outcome of beforeActivation) if (!outcome.succeeded) expect(outcome.state).toBe('old');
      expect(beforeActivation.filter((o) => o.succeeded).length).toBeLessThanOrEqual(1);
      expect(new Set(outcomes.map((o) => o.state))).toEqual(new Set(['old', 'new']));
    }, 120_000);
  }

  /** The memory store, with a write landing just before each of `method`'s calls. */
  function writingBefore(projectId: string, method: 'stageGeneration' | 'activateGeneration') {
    const written: string[] = [];
    const state = Object.assign(Object.create(world.memory), {
      [method]: async (...args: unknown[]) => {
        const key = `ENT#main#racer${written.length + 1}`;
        await world.memory.write(projectId, { key, body: { entry_id: key, content: 'written mid-restore' } });
        written.push(key);
        return (world.memory[method] as (...a: unknown[]) => Promise<unknown>).apply(world.memory, args);
      },
    });
    return { deps: { ...world.deps, state } as SnapshotDeps, written };
  }

  it('backs up again when a write lands between the backup and the switch, so the write is kept', async () => {
    const { projectId, snap, fresh, fingerprint } = await prepared();
    const racing = writingBefore(projectId, 'stageGeneration');

    const restored = await restoreSnapshot(racing.deps, projectId, snap.snapshot_id);

    expect(await fingerprint()).toBe(fresh);
    const backup = await verifiedSnapshot(world.deps, projectId, restored.backup_snapshot_id);
    expect(racing.written).toEqual(['ENT#main#racer1']);
    expect(backup.items().map((item) => item.id)).toContain('ENT#main#racer1');
  });

  it('answers CONFLICT, keeping every write and the old state, when writes land before every switch', async () => {
    const { projectId, snap } = await prepared();
    const before = await world.memory.exportState(projectId);
    const racing = writingBefore(projectId, 'activateGeneration');

    const error = await restoreSnapshot(racing.deps, projectId, snap.snapshot_id).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'CONFLICT' });
    expect(racing.written).toHaveLength(3);
    const after = await world.memory.exportState(projectId);
    expect(after.generation).toBe(before.generation);
    expect(after.records.map((r) => r.key).sort()).toEqual(
      [...before.records.map((r) => r.key), ...racing.written].sort(),
    );
  });

  it('keeps a write that lands on the restored state before the check reads it back', async () => {
    const { projectId, snap } = await prepared();
    let written = false;
    const racing: SnapshotDeps = {
      ...world.deps,
      state: Object.assign(Object.create(world.memory), {
        activateGeneration: async (...args: Parameters<typeof world.memory.activateGeneration>) => {
          const revision = await world.memory.activateGeneration(...args);
          if (!written) {
            written = true;
            await world.memory.write(projectId, {
              key: 'ENT#main#after-switch',
              body: { entry_id: 'after-switch', content: 'written on the restored state' },
            });
          }
          return revision;
        },
      }),
    };

    const restored = await restoreSnapshot(racing, projectId, snap.snapshot_id);

    const after = await world.memory.exportState(projectId);
    expect(restored.verified).toBe(true);
    expect(after.records.map((r) => r.key)).toContain('ENT#main#after-switch');
    expect(after.records.map((r) => r.key)).not.toContain('ENT#main#b');
  });

  it('puts the old state back when the state read after activation does not match', async () => {
    const { projectId, snap, old, fingerprint } = await prepared();
    // A store that loses a record on staging: activation succeeds, the check after it must not.
    const lossy: SnapshotDeps = {
      ...world.deps,
      state: Object.assign(Object.create(world.memory), {
        stageGeneration: (id: string, records: readonly { key: string; body: unknown }[]) =>
          world.memory.stageGeneration(id, records.slice(1)),
      }),
    };
    const error = await restoreSnapshot(lossy, projectId, snap.snapshot_id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STORAGE_ERROR' });
    expect(await fingerprint()).toBe(old);
  });

  it('puts the old state back when a record reads back with other content, every record the same count', async () => {
    const { projectId, snap, old, fingerprint } = await prepared();
    // A store that alters one record's body on staging: same ids, so only the content check sees it.
    const altering: SnapshotDeps = {
      ...world.deps,
      state: Object.assign(Object.create(world.memory), {
        stageGeneration: (id: string, records: readonly { key: string; body: unknown }[]) =>
          world.memory.stageGeneration(
            id,
            records.map((r, i) => (i === records.length - 1 ? { ...r, body: { altered: true } } : r)),
          ),
      }),
    };
    const error = await restoreSnapshot(altering, projectId, snap.snapshot_id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STORAGE_ERROR' });
    expect(await fingerprint()).toBe(old);
  });
});
