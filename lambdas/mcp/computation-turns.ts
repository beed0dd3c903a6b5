import type { ComputationArgs, ComputationName, ComputationResult } from './computations.js';

/**
 * Runs the time tools' CPU-bound work (computations.ts) so that it never holds the event loop
 * for long. Each computation is bounded (a WorkBudget keeps it near 100 ms of CPU), but ten
 * requests that arrive together would otherwise run their jobs back to back in one turn and hold
 * every other request — /health included — for the sum.
 *
 * By default a job runs in a later event-loop turn of its own, in arrival order: the next job
 * starts from a fresh setImmediate only after the previous one finished, so the loop polls for
 * I/O between jobs and a waiting request is served after at most one job. That is enough where
 * one process serves one request at a time (Lambda) or one client (stdio).
 *
 * `meridian serve` installs a {@link ComputationRunner} on a worker thread instead
 * (runtime/computation-thread.ts). Measured with ten worst-case calls at once on a 2-core machine,
 * one job held the loop 40–75 ms idle and up to 1,035 ms of wall time when other processes
 * loaded the cores, and a /health probe waited behind it (slowest 1,351 ms). A job cannot be
 * cut into shorter turns: its longest part is rrule's synchronous period loop, which cannot
 * yield and resume; a smaller WorkBudget would refuse rules that succeed today. On a thread of
 * its own the job holds no loop at all, and the probe is answered as soon as the OS schedules
 * the main thread.
 */
export interface ComputationRunner {
  run<N extends ComputationName>(name: N, args: ComputationArgs<N>): Promise<ComputationResult<N>>;
}

let tail: Promise<unknown> = Promise.resolve();

/** One job per event-loop turn, in arrival order, on this thread. */
const inOwnTurn: ComputationRunner = {
  run(name, args) {
    // Loaded with the first job, not with this module: `serve` installs a thread runner and its
    // main thread then never compiles the time code (a first load held the loop ~250 ms).
    const result = tail.then(async () => {
      const { runComputation } = await import('./computations.js');
      return new Promise<ComputationResult<typeof name>>((resolve, reject) => {
        setImmediate(() => {
          try {
            resolve(runComputation(name, args));
          } catch (error) {
            reject(error);
          }
        });
      });
    });
    tail = result.catch(() => undefined);
    return result;
  },
};

let runner: ComputationRunner = inOwnTurn;

/**
 * Makes every later {@link compute} of this process run on `offThread`. Called by the
 * composition of `meridian serve` only.
 */
export function computeOn(offThread: ComputationRunner): void {
  runner = offThread;
}

/**
 * Runs computation `name` where this process runs CPU-bound work; resolves or rejects with its
 * outcome (a DomainError keeps its class, code and details).
 *
 * @example
 * const result = await compute('expandRrule', { rrule: 'FREQ=DAILY;COUNT=2', dtstart: '2026-03-07T09:00', timezone: 'UTC' });
 */
export function compute<N extends ComputationName>(
  name: N,
  args: ComputationArgs<N>,
): Promise<ComputationResult<N>> {
  return runner.run(name, args);
}
