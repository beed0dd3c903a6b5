import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseEnvironment } from '../../lambdas/runtime/environment.js';
import { startSyncTimer } from '../../lambdas/runtime/sync-timer.js';

const syncIntervalMs = (env: Record<string, string>) => parseEnvironment(env).syncIntervalMs;

const MINUTE = 60_000;

/** A run the test finishes by hand, counting how many were started. */
function controllableRun() {
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const run = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  );
  return { run, pending };
}

function recordingLogger() {
  const lines: { level: string; message: string; extra?: Record<string, unknown> }[] = [];
  const log = (level: string) => (message: string, extra?: Record<string, unknown>) => {
    lines.push({ level, message, ...(extra ? { extra } : {}) });
  };
  return { logger: { info: log('info'), warn: log('warn'), error: log('error') }, lines };
}

describe('startSyncTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at start and then every interval', async () => {
    const run = vi.fn(async () => undefined);
    const timer = startSyncTimer({ intervalMs: 5 * MINUTE, run, logger: recordingLogger().logger });

    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(15 * MINUTE);

    expect(run).toHaveBeenCalledTimes(4);
    await timer.stop();
  });

  it('never starts a run while the previous one is still going', async () => {
    const { run, pending } = controllableRun();
    const { logger, lines } = recordingLogger();
    const timer = startSyncTimer({ intervalMs: 5 * MINUTE, run, logger });

    await vi.advanceTimersByTimeAsync(16 * MINUTE);
    expect(run).toHaveBeenCalledTimes(1);
    expect(lines.filter((l) => l.message.includes('skipping'))).toHaveLength(3);

    pending[0]!.resolve();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(run).toHaveBeenCalledTimes(2);

    pending[1]!.resolve();
    await timer.stop();
  });

  it('logs a failed run and keeps going', async () => {
    const { run, pending } = controllableRun();
    const { logger, lines } = recordingLogger();
    const timer = startSyncTimer({ intervalMs: MINUTE, run, logger });

    pending[0]!.reject(new Error('Google is down'));
    await vi.advanceTimersByTimeAsync(MINUTE);

    expect(lines).toContainEqual({
      level: 'error',
      message: 'sync: run failed',
      extra: { error: new Error('Google is down') },
    });
    expect(run).toHaveBeenCalledTimes(2);
    pending[1]!.resolve();
    await timer.stop();
  });

  it('stops ticking and waits for the run in progress', async () => {
    const { run, pending } = controllableRun();
    const timer = startSyncTimer({
      intervalMs: MINUTE,
      run,
      logger: recordingLogger().logger,
      runAtStart: false,
    });
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(run).toHaveBeenCalledTimes(1);

    let stopped = false;
    const stopping = timer.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(stopped).toBe(false);
    pending[0]!.resolve();
    await stopping;

    expect(stopped).toBe(true);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('uses injected timer functions when given', async () => {
    const ticks: (() => void)[] = [];
    const timers = {
      setInterval: (callback: () => void) => {
        ticks.push(callback);
        return {};
      },
      clearInterval: vi.fn(),
    };
    const run = vi.fn(async () => undefined);
    const timer = startSyncTimer({
      intervalMs: MINUTE,
      run,
      logger: recordingLogger().logger,
      timers,
      runAtStart: false,
    });

    ticks[0]!();
    await timer.stop();

    expect(run).toHaveBeenCalledTimes(1);
    expect(timers.clearInterval).toHaveBeenCalledTimes(1);
  });
});

describe('MERIDIAN_SYNC_INTERVAL_MINUTES (parseEnvironment)', () => {
  it('defaults to five minutes, reads whole minutes, and is off at 0', () => {
    expect(syncIntervalMs({})).toBe(5 * MINUTE);
    expect(syncIntervalMs({ MERIDIAN_SYNC_INTERVAL_MINUTES: ' 15 ' })).toBe(15 * MINUTE);
    expect(syncIntervalMs({ MERIDIAN_SYNC_INTERVAL_MINUTES: '0' })).toBeUndefined();
  });

  it.each(['abc', '-1', '1.5', '1441'])('refuses %s with a message naming the variable', (value) => {
    expect(() => syncIntervalMs({ MERIDIAN_SYNC_INTERVAL_MINUTES: value })).toThrow(
      /MERIDIAN_SYNC_INTERVAL_MINUTES must be a whole number of minutes from 0 \(off\) to 1440/,
    );
  });
});
