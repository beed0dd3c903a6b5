import type { Logger } from '../core/ports/index.js';

/** The timer functions the sync timer uses; tests pass fake ones. */
export interface TimerFunctions {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface SyncTimerOptions {
  intervalMs: number;
  /** One sync run. Its result is ignored; a rejection is logged. */
  run: () => Promise<unknown>;
  logger: Logger;
  /** Run once right away, so a server starts with a fresh shadow. @default true */
  runAtStart?: boolean;
  /** @default the global setInterval / clearInterval */
  timers?: TimerFunctions;
  /** What runs, as log lines name it. @default 'sync' */
  name?: string;
}

export interface SyncTimer {
  /** Stops the timer and waits for a run in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs` in this process (the embedded runtime's stand-in for the
 * EventBridge schedule). Runs never overlap: a tick that comes while one is still going is
 * skipped, not queued. A failed run is logged and the timer carries on.
 *
 * @example
 * const timer = startSyncTimer({ intervalMs: 300_000, run: () => syncAll(runtime), logger });
 * process.once('SIGTERM', () => timer.stop());
 */
export function startSyncTimer(options: SyncTimerOptions): SyncTimer {
  const timers = options.timers ?? { setInterval, clearInterval };
  let running: Promise<void> | undefined;
  let stopped = false;
  const name = options.name ?? 'sync';

  const tick = () => {
    if (stopped) return;
    if (running) {
      options.logger.info(`${name}: previous run still going, skipping this tick`);
      return;
    }
    running = options
      .run()
      .then(
        () => undefined,
        (error: unknown) => options.logger.error(`${name}: run failed`, { error }),
      )
      .finally(() => {
        running = undefined;
      });
  };

  const handle = timers.setInterval(tick, options.intervalMs);
  // The timer alone must not keep a process alive that has nothing else to do.
  (handle as { unref?: () => void }).unref?.();
  if (options.runAtStart ?? true) tick();

  return {
    stop: async () => {
      stopped = true;
      timers.clearInterval(handle);
      await running;
    },
  };
}
