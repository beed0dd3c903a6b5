import {
  type IdleSweepDeps,
  type IdleSweepOptions,
  type IdleSweepSummary,
  sweepIdleContexts,
} from '../core/memory/contexts/idle-compression-sweep.js';
import type { Logger } from '../core/ports/index.js';
import { type SyncTimer, startSyncTimer, type TimerFunctions } from './sync-timer.js';

/** One sweep run; `shouldStop` as in {@link IdleSweepOptions}. */
export type IdleCompressionRun = (
  options?: Pick<IdleSweepOptions, 'shouldStop'>,
) => Promise<IdleSweepSummary>;

/**
 * Sweep runs as the embedded timer and the scheduled Lambda make them: each run carries on from
 * where the previous one stopped (the cursor lives as long as the process or the warm container;
 * losing it only restarts at the oldest idle project), and logs its totals and each failing project.
 *
 * @example
 * const run = idleCompressionRuns({ store, memory, clock }, logger);
 * await run();
 */
export function idleCompressionRuns(deps: IdleSweepDeps, logger: Logger): IdleCompressionRun {
  let cursor: string | undefined;
  return async (options = {}) => {
    const summary = await sweepIdleContexts(deps, {
      ...options,
      ...(cursor === undefined ? {} : { cursor }),
    });
    cursor = summary.cursor;
    for (const failure of summary.failures) logger.warn('memory compression: project failed', failure);
    const { failures, cursor: _cursor, ...totals } = summary;
    logger.info('memory compression: run finished', { ...totals, failed: failures.length });
    return summary;
  };
}

/**
 * The embedded runtime's stand-in for the AWS schedule: a sweep every `intervalMs` in this
 * process (unref'd, runs never overlap), or nothing when the interval is off (undefined).
 *
 * @example
 * const timer = startIdleCompressionTimer(deps, logger, processEnvironment().memoryCompressionIntervalMs);
 * await timer?.stop();
 */
export function startIdleCompressionTimer(
  deps: IdleSweepDeps,
  logger: Logger,
  intervalMs: number | undefined,
  /** @default the global setInterval / clearInterval */
  timers?: TimerFunctions,
): SyncTimer | undefined {
  if (intervalMs === undefined) return undefined;
  const run = idleCompressionRuns(deps, logger);
  return startSyncTimer({
    name: 'memory compression',
    intervalMs,
    run: () => run(),
    logger,
    // Not at start: a context goes idle 30 minutes after its last write, never at a restart.
    runAtStart: false,
    ...(timers ? { timers } : {}),
  });
}
