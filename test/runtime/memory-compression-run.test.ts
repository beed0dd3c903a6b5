import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { IDLE_COMPRESSION_MS } from '../../lambdas/core/memory/store/memory-store.js';
import type { Clock } from '../../lambdas/core/ports/index.js';
import { parseEnvironment } from '../../lambdas/runtime/environment.js';
import { startIdleCompressionTimer } from '../../lambdas/runtime/memory-compression-run.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const memoryCompressionIntervalMs = (env: Record<string, string>) =>
  parseEnvironment(env).memoryCompressionIntervalMs;

describe('MERIDIAN_MEMORY_COMPRESSION_INTERVAL_MINUTES (parseEnvironment)', () => {
  it('is 5 minutes by default, off at 0, and refuses anything but whole minutes, naming the variable', () => {
    expect(memoryCompressionIntervalMs({})).toBe(5 * 60_000);
    expect(memoryCompressionIntervalMs({ MERIDIAN_MEMORY_COMPRESSION_INTERVAL_MINUTES: '15' })).toBe(
      15 * 60_000,
    );
    expect(
      memoryCompressionIntervalMs({ MERIDIAN_MEMORY_COMPRESSION_INTERVAL_MINUTES: '0' }),
    ).toBeUndefined();
    expect(() =>
      memoryCompressionIntervalMs({ MERIDIAN_MEMORY_COMPRESSION_INTERVAL_MINUTES: '2.5' }),
    ).toThrow(
      /MERIDIAN_MEMORY_COMPRESSION_INTERVAL_MINUTES must be a whole number of minutes from 0 \(off\) to 1440/,
    );
  });
});

describe('startIdleCompressionTimer (the embedded runtime)', () => {
  let runtime: TestRuntime;
  let now = Date.parse('2026-11-23T09:00:00Z');
  const clock: Clock = { now: () => new Date(now) };

  beforeAll(async () => {
    runtime = await startTestRuntime({ clock });
  });

  afterAll(async () => {
    await runtime?.close();
  });

  it('is off without an interval', () => {
    const deps = { store: runtime.store, memory: runtime.memory.memory, blobs: runtime.memoryBlobs, clock };
    expect(startIdleCompressionTimer(deps, runtime.logger, undefined)).toBeUndefined();
  });

  it('sweeps on each tick of an unref’d interval, not at start, compressing the idle context', async () => {
    const projectId = (await runtime.rules.projects.create({ name: 'Shop' })).project_id;
    const { branch_id } = await runtime.memory.createBranch(LOCAL_OWNER, projectId, { topic: 'Checkout' });
    await runtime.memory.updateMemory(LOCAL_OWNER, projectId, {
      branch_id,
      role: 'user',
      content: 'Ship it.',
    });
    let tick: (() => void) | undefined;
    let unref = 0;
    const timers = {
      setInterval: (callback: () => void, ms: number) => {
        expect(ms).toBe(5 * 60_000);
        tick = callback;
        return { unref: () => (unref += 1) };
      },
      clearInterval: () => undefined,
    };
    const deps = { store: runtime.store, memory: runtime.memory.memory, blobs: runtime.memoryBlobs, clock };

    const timer = startIdleCompressionTimer(deps, runtime.logger, 5 * 60_000, timers)!;
    now += IDLE_COMPRESSION_MS + 1000;
    expect((await runtime.memory.memory.branchView(projectId, branch_id)).status).toBe('active');
    tick!();
    await timer.stop();

    expect(unref).toBe(1);
    expect(await runtime.memory.memory.branchView(projectId, branch_id)).toMatchObject({
      status: 'compressed',
      rows: [],
    });
  });
});
